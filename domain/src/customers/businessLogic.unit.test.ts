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
      thenThrows: (error: new (...args: never[]) => Error) => expect(() => decideCustomer(command, state)).toThrow(error),
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
    given(added)
      .when({ type: 'ChangeCustomerStanding', customerId, status: 'inactive', reason: 'Moved out' })
      .then([{ type: 'customer_standing_changed', data: { customerId, status: 'inactive', reason: 'Moved out' } }]);
    given(added).when({ type: 'ChangeCustomerStanding', customerId, status: 'active', reason: 'Already so' }).then([]);
    given(added).when({ type: 'ChangeCustomerStanding', customerId, status: 'terminated', reason: ' ' }).thenThrows(DomainRuleError);
    given(added)
      .when({ type: 'ChangeCustomerStanding', customerId, status: 'overdue' as never, reason: 'By hand' })
      .thenThrows(DomainRuleError);
  });

  it('cannot be updated before it exists or after it is archived', () => {
    given()
      .when({ type: 'UpdateCustomer', customerId, changes: { phone: '1' } })
      .thenThrows(NotFoundError);
    given(added, { type: 'customer_archived', data: { customerId } })
      .when({ type: 'UpdateCustomer', customerId, changes: { phone: '1' } })
      .thenThrows(NotFoundError);
  });

  it('is archived once; archiving again changes nothing', () => {
    given(added)
      .when({ type: 'ArchiveCustomer', customerId })
      .then([{ type: 'customer_archived', data: { customerId } }]);
    given(added, { type: 'customer_archived', data: { customerId } }).when({ type: 'ArchiveCustomer', customerId }).then([]);
    given().when({ type: 'ArchiveCustomer', customerId }).thenThrows(NotFoundError);
  });
});
