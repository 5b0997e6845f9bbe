import type { CustomerStatus } from '@storage/contracts/enums';
import type { DomainEvent } from '@storage/contracts/events';
import { formatDollars, toCents } from '@storage/contracts/money';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import type { CustomerContactFields, CustomerFields, CustomerState } from './customer.ts';

export type AddCustomer = { type: 'AddCustomer'; customerId: string; fields: CustomerFields };
export type UpdateCustomer = { type: 'UpdateCustomer'; customerId: string; changes: Partial<CustomerContactFields> };
/**
 * A manager's decision on the renter's standing; overdue is the billing engine's, from the invoices.
 * `hasOverdueInvoice`: whether one of the renter's invoices is overdue, as their own streams say.
 */
export type ChangeCustomerStanding = {
  type: 'ChangeCustomerStanding';
  customerId: string;
  status: Exclude<CustomerStatus, 'overdue'>;
  reason: string;
  hasOverdueInvoice: boolean;
};
/** What the customer still holds, as their leases' and invoices' own streams tell it when an archive is decided. */
export interface CustomerHoldings {
  /** Leases in effect, or being moved into this moment. */
  activeLeases: number;
  /** What their sent and overdue invoices still owe. */
  openBalance: string;
}
export type ArchiveCustomer = { type: 'ArchiveCustomer'; customerId: string; holdings: CustomerHoldings };
export type RestoreCustomer = { type: 'RestoreCustomer'; customerId: string };
/** A move-in names its lease on the customer's stream before the lease starts. */
export type ListCustomerLease = { type: 'ListCustomerLease'; customerId: string; leaseId: string; unitId: string };
export type AddCustomerNote = { type: 'AddCustomerNote'; customerId: string; noteId: string; text: string };
export type CustomerCommand = AddCustomer | UpdateCustomer | ChangeCustomerStanding | ArchiveCustomer | RestoreCustomer | ListCustomerLease | AddCustomerNote;

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
  // Active by hand beside an overdue invoice would hide the debt the billing engine marked.
  if (command.status === 'active' && command.hasOverdueInvoice) throw new ConflictError('This customer has an overdue invoice; settle it first');
  if (state.fields.status === command.status) return [];
  return [{ type: 'customer_standing_changed', data: { customerId: command.customerId, status: command.status, reason } }];
}

/**
 * A renter who still rents or still owes is not archived: the lease would go on billing, and
 * autopay charging, someone the screens and the portal no longer show.
 */
export function archiveCustomer(command: ArchiveCustomer, state: CustomerState): DomainEvent[] {
  if (state.status === 'none') throw new NotFoundError('Customer not found');
  if (state.status === 'archived') return [];
  const { activeLeases, openBalance } = command.holdings;
  if (activeLeases > 0)
    throw new ConflictError(`This customer has ${activeLeases === 1 ? 'an active lease' : `${activeLeases} active leases`}; move them out first`);
  if (toCents(openBalance) > 0n) throw new ConflictError(`This customer has an open balance of ${formatDollars(openBalance)}; settle it first`);
  return [{ type: 'customer_archived', data: { customerId: command.customerId } }];
}

export function restoreCustomer(command: RestoreCustomer, state: CustomerState): DomainEvent[] {
  if (state.status === 'none') throw new NotFoundError('Customer not found');
  if (state.status === 'current') return [];
  return [{ type: 'customer_restored', data: { customerId: command.customerId } }];
}

export function listCustomerLease(command: ListCustomerLease, state: CustomerState): DomainEvent[] {
  if (state.status !== 'current') throw new NotFoundError('Customer not found');
  if (state.leases.some((lease) => lease.leaseId === command.leaseId)) return [];
  return [{ type: 'customer_lease_listed', data: { customerId: command.customerId, leaseId: command.leaseId, unitId: command.unitId } }];
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
    case 'RestoreCustomer':
      return restoreCustomer(command, state);
    case 'ListCustomerLease':
      return listCustomerLease(command, state);
    case 'AddCustomerNote':
      return addCustomerNote(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
    }
  }
}
