import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
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
