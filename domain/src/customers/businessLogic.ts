import type { CustomerStatus } from '@storage/contracts/enums';
import type { DomainEvent } from '@storage/contracts/events';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import type { CustomerContactFields, CustomerFields, CustomerState } from './customer.ts';

export type AddCustomer = { type: 'AddCustomer'; customerId: string; fields: CustomerFields };
export type UpdateCustomer = { type: 'UpdateCustomer'; customerId: string; changes: Partial<CustomerContactFields> };
/** A manager's decision on the renter's standing; overdue is the billing engine's, from the invoices. */
export type ChangeCustomerStanding = { type: 'ChangeCustomerStanding'; customerId: string; status: Exclude<CustomerStatus, 'overdue'>; reason: string };
export type ArchiveCustomer = { type: 'ArchiveCustomer'; customerId: string };
export type AddCustomerNote = { type: 'AddCustomerNote'; customerId: string; noteId: string; text: string };
export type CustomerCommand = AddCustomer | UpdateCustomer | ChangeCustomerStanding | ArchiveCustomer | AddCustomerNote;

const contactFieldNames = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'address',
  'emergencyContact',
  'emergencyPhone',
] as const satisfies readonly (keyof CustomerContactFields)[];

export function addCustomer(command: AddCustomer, state: CustomerState): DomainEvent[] {
  if (state.status !== 'none') throw new ConflictError('This customer already exists');
  return [{ type: 'customer_added', data: { customerId: command.customerId, ...command.fields } }];
}

export function updateCustomer(command: UpdateCustomer, state: CustomerState): DomainEvent[] {
  if (state.status !== 'current') throw new NotFoundError('Customer not found');
  // Contact details only, whatever the caller passed: an edit never moves the standing or the facility.
  const changes = Object.fromEntries(
    contactFieldNames.flatMap((key) => (key in command.changes && command.changes[key] !== state.fields[key] ? [[key, command.changes[key]]] : [])),
  ) as Partial<CustomerContactFields>;
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'customer_updated', data: { customerId: command.customerId, changes } }];
}

export function changeCustomerStanding(command: ChangeCustomerStanding, state: CustomerState): DomainEvent[] {
  if (state.status !== 'current') throw new NotFoundError('Customer not found');
  if ((command.status as CustomerStatus) === 'overdue') throw new DomainRuleError('status: overdue follows the invoices', 'status');
  const reason = command.reason.trim();
  if (reason === '') throw new DomainRuleError('reason: is required', 'reason');
  if (state.fields.status === command.status) return [];
  return [{ type: 'customer_standing_changed', data: { customerId: command.customerId, status: command.status, reason } }];
}

export function archiveCustomer(command: ArchiveCustomer, state: CustomerState): DomainEvent[] {
  if (state.status === 'none') throw new NotFoundError('Customer not found');
  if (state.status === 'archived') return [];
  return [{ type: 'customer_archived', data: { customerId: command.customerId } }];
}

export function addCustomerNote(command: AddCustomerNote, state: CustomerState): DomainEvent[] {
  if (state.status !== 'current') throw new NotFoundError('Customer not found');
  const text = command.text.trim();
  if (text === '') throw new DomainRuleError('text: is required', 'text');
  return [{ type: 'customer_note_added', data: { customerId: command.customerId, noteId: command.noteId, text } }];
}

export function decideCustomer(command: CustomerCommand, state: CustomerState): DomainEvent[] {
  switch (command.type) {
    case 'AddCustomer':
      return addCustomer(command, state);
    case 'UpdateCustomer':
      return updateCustomer(command, state);
    case 'ChangeCustomerStanding':
      return changeCustomerStanding(command, state);
    case 'ArchiveCustomer':
      return archiveCustomer(command, state);
    case 'AddCustomerNote':
      return addCustomerNote(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
    }
  }
}
