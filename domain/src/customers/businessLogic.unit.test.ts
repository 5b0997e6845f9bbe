import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { type CustomerCommand, decideCustomer } from './businessLogic.ts';
import { type CustomerFields, evolveCustomer, initialCustomerState } from './customer.ts';

const customerId = '0f0e0d0c-0b0a-4900-8800-776655443322';
const fields: CustomerFields = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '555-0100',
  address: null,
  emergencyContact: null,
  emergencyPhone: null,
  status: 'active',
  facilityId: null,
};
const added: DomainEvent = { type: 'customer_added', data: { customerId, ...fields } };

function given(...events: DomainEvent[]) {
  const state = events.reduce(evolveCustomer, initialCustomerState);
  return {
    when: (command: CustomerCommand) => ({
      then: (expected: DomainEvent[]) => expect(decideCustomer(command, state)).toEqual(expected),
      thenThrows: (error: new (...args: never[]) => Error, message?: string) => {
        expect(() => decideCustomer(command, state)).toThrow(error);
        if (message !== undefined) expect(() => decideCustomer(command, state)).toThrow(message);
      },
    }),
  };
}

describe('customer', () => {
  it('is added once', () => {
    given().when({ type: 'AddCustomer', customerId, fields }).then([added]);
    given(added).when({ type: 'AddCustomer', customerId, fields }).thenThrows(ConflictError);
  });

  it('records only the fields an update really changes', () => {
    given(added)
      .when({ type: 'UpdateCustomer', customerId, changes: { firstName: 'Ada', phone: '555-0199' } })
      .then([{ type: 'customer_updated', data: { customerId, changes: { phone: '555-0199' } } }]);
    given(added)
      .when({ type: 'UpdateCustomer', customerId, changes: { firstName: 'Ada' } })
      .then([]);
  });

  it('never changes the standing or the facility through an edit of the details, whatever the edit holds', () => {
    const overdue: DomainEvent = { type: 'customer_standing_changed', data: { customerId, status: 'overdue', reason: 'INV-1 is past due' } };
    // As a form that filled in defaults would send it: the renter's standing and facility must stay.
    const edit = { phone: '555-0199', status: 'active', facilityId: '7c4d2e1f-3a5b-4c6d-8e9f-0a1b2c3d4e05' } as never;
    given(added, overdue)
      .when({ type: 'UpdateCustomer', customerId, changes: edit })
      .then([{ type: 'customer_updated', data: { customerId, changes: { phone: '555-0199' } } }]);
  });

  it("changes the standing only by a manager's decision, with a reason; overdue follows the invoices", () => {
    const standing = { type: 'ChangeCustomerStanding', customerId, hasOverdueInvoice: false } as const;
    given(added)
      .when({ ...standing, status: 'inactive', reason: 'Moved out' })
      .then([{ type: 'customer_standing_changed', data: { customerId, status: 'inactive', reason: 'Moved out' } }]);
    given(added)
      .when({ ...standing, status: 'active', reason: 'Already so' })
      .then([]);
    given(added)
      .when({ ...standing, status: 'terminated', reason: ' ' })
      .thenThrows(DomainRuleError, 'reason: is required');
    given(added)
      .when({ ...standing, status: 'overdue' as never, reason: 'By hand' })
      .thenThrows(DomainRuleError);
    given()
      .when({ ...standing, status: 'inactive', reason: 'Moved out' })
      .thenThrows(NotFoundError);
  });

  it('puts a renter back to active by hand only when none of their invoices is overdue', () => {
    const overdue: DomainEvent = { type: 'customer_standing_changed', data: { customerId, status: 'overdue', reason: 'INV-1 is past due' } };
    const terminated: DomainEvent = { type: 'customer_standing_changed', data: { customerId, status: 'terminated', reason: 'Broke the rules' } };
    const reinstate = { type: 'ChangeCustomerStanding', customerId, status: 'active', reason: 'Paid at the desk' } as const;
    given(added, terminated)
      .when({ ...reinstate, hasOverdueInvoice: true })
      .thenThrows(ConflictError, 'This customer has an overdue invoice; settle it first');
    given(added, overdue)
      .when({ ...reinstate, hasOverdueInvoice: true })
      .thenThrows(ConflictError, 'This customer has an overdue invoice; settle it first');
    given(added, terminated)
      .when({ ...reinstate, hasOverdueInvoice: false })
      .then([{ type: 'customer_standing_changed', data: { customerId, status: 'active', reason: 'Paid at the desk' } }]);
    // Inactive or terminated is a manager's call whatever the invoices say.
    given(added, overdue)
      .when({ type: 'ChangeCustomerStanding', customerId, status: 'terminated', reason: 'Abandoned the unit', hasOverdueInvoice: true })
      .then([{ type: 'customer_standing_changed', data: { customerId, status: 'terminated', reason: 'Abandoned the unit' } }]);
  });

  it('cannot be updated before it exists or after it is archived', () => {
    given()
      .when({ type: 'UpdateCustomer', customerId, changes: { phone: '1' } })
      .thenThrows(NotFoundError);
    given(added, { type: 'customer_archived', data: { customerId } })
      .when({ type: 'UpdateCustomer', customerId, changes: { phone: '1' } })
      .thenThrows(NotFoundError);
  });

  const holdsNothing = { activeLeases: 0, openBalance: '0.00' };
  const archived: DomainEvent = { type: 'customer_archived', data: { customerId } };

  it('is archived once, when it holds nothing; archiving again changes nothing', () => {
    given(added).when({ type: 'ArchiveCustomer', customerId, holdings: holdsNothing }).then([archived]);
    given(added, archived).when({ type: 'ArchiveCustomer', customerId, holdings: holdsNothing }).then([]);
    given().when({ type: 'ArchiveCustomer', customerId, holdings: holdsNothing }).thenThrows(NotFoundError);
  });

  it('is not archived while it rents: the lease would go on billing someone no screen shows', () => {
    given(added)
      .when({ type: 'ArchiveCustomer', customerId, holdings: { activeLeases: 1, openBalance: '0.00' } })
      .thenThrows(ConflictError, 'This customer has an active lease; move them out first');
    given(added)
      .when({ type: 'ArchiveCustomer', customerId, holdings: { activeLeases: 2, openBalance: '45.00' } })
      .thenThrows(ConflictError, 'This customer has 2 active leases; move them out first');
  });

  it('is not archived while it owes anything', () => {
    given(added)
      .when({ type: 'ArchiveCustomer', customerId, holdings: { activeLeases: 0, openBalance: '1234.50' } })
      .thenThrows(ConflictError, 'This customer has an open balance of $1,234.50; settle it first');
    given(added)
      .when({ type: 'ArchiveCustomer', customerId, holdings: { activeLeases: 0, openBalance: '0.01' } })
      .thenThrows(ConflictError, 'an open balance of $0.01');
  });

  it('is restored from the archive once; a customer never archived has nothing to restore', () => {
    given(added, archived)
      .when({ type: 'RestoreCustomer', customerId })
      .then([{ type: 'customer_restored', data: { customerId } }]);
    given(added, archived, { type: 'customer_restored', data: { customerId } }).when({ type: 'RestoreCustomer', customerId }).then([]);
    given(added).when({ type: 'RestoreCustomer', customerId }).then([]);
    given().when({ type: 'RestoreCustomer', customerId }).thenThrows(NotFoundError);
  });

  it('can be edited again once restored', () => {
    given(added, archived, { type: 'customer_restored', data: { customerId } })
      .when({ type: 'UpdateCustomer', customerId, changes: { phone: '555-0101' } })
      .then([{ type: 'customer_updated', data: { customerId, changes: { phone: '555-0101' } } }]);
  });

  it('lists each lease a move-in takes once, and none once archived', () => {
    const leaseId = '1a2b3c4d-5e6f-4a0b-8c1d-2e3f4a5b6c7d';
    const unitId = '2b3c4d5e-6f7a-4b1c-9d2e-3f4a5b6c7d8e';
    const listed: DomainEvent = { type: 'customer_lease_listed', data: { customerId, leaseId, unitId } };
    given(added).when({ type: 'ListCustomerLease', customerId, leaseId, unitId }).then([listed]);
    given(added, listed).when({ type: 'ListCustomerLease', customerId, leaseId, unitId }).then([]);
    given(added, archived).when({ type: 'ListCustomerLease', customerId, leaseId, unitId }).thenThrows(NotFoundError);
    expect([added, listed].reduce(evolveCustomer, initialCustomerState)).toMatchObject({ status: 'current', leases: [{ leaseId, unitId }] });
  });
});
