import type { DomainEvent } from '@storage/contracts/events';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import type { CustomerFields, CustomerState } from './customer.ts';

export type AddCustomer = { type: 'AddCustomer'; customerId: string; fields: CustomerFields };
export type UpdateCustomer = { type: 'UpdateCustomer'; customerId: string; changes: Partial<CustomerFields> };
export type ArchiveCustomer = { type: 'ArchiveCustomer'; customerId: string };
export type AddCustomerNote = { type: 'AddCustomerNote'; customerId: string; noteId: string; text: string };
export type CustomerCommand = AddCustomer | UpdateCustomer | ArchiveCustomer | AddCustomerNote;

export function addCustomer(command: AddCustomer, state: CustomerState): DomainEvent[] {
  if (state.status !== 'none') throw new ConflictError('This customer already exists');
  return [{ type: 'customer_added', data: { customerId: command.customerId, ...command.fields } }];
}

export function updateCustomer(command: UpdateCustomer, state: CustomerState): DomainEvent[] {
  if (state.status !== 'current') throw new NotFoundError('Customer not found');
  const changes = Object.fromEntries(
    Object.entries(command.changes).filter(([key, value]) => state.fields[key as keyof CustomerFields] !== value),
  ) as Partial<CustomerFields>;
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'customer_updated', data: { customerId: command.customerId, changes } }];
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
