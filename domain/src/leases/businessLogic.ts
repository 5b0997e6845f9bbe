import type { DomainEvent } from '@storage/contracts/events';
import { toCents } from '@storage/contracts/money';
import { addDays } from '../billing/calendar.ts';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import type { LeaseState, LeaseTerms } from './lease.ts';

export type StartLease = { type: 'StartLease'; leaseId: string; terms: LeaseTerms };
export type EndLease = { type: 'EndLease'; leaseId: string; endDate: string };
/** The lease's unit was taken but the lease never started: it never will. */
export type AbandonLeaseStart = { type: 'AbandonLeaseStart'; leaseId: string; unitId: string; reason: string };
/** The billing engine invoiced the lease's rent for this period (the next one after what is billed). */
export type RecordRentBilled = { type: 'RecordRentBilled'; leaseId: string; invoiceId: string; periodStart: string; periodEnd: string };
export type LeaseCommand = StartLease | EndLease | AbandonLeaseStart | RecordRentBilled;

export function startLease(command: StartLease, state: LeaseState): DomainEvent[] {
  if (state.status === 'abandoned') throw new ConflictError('This move-in took too long and its unit was let go. Please start the lease again.');
  if (state.status !== 'none') throw new ConflictError('This lease already exists');
  const { monthlyRate, depositAmount } = command.terms;
  if (toCents(monthlyRate) <= 0n) throw new DomainRuleError('The monthly rate must be more than 0.00', 'monthlyRate');
  if (depositAmount !== null && toCents(depositAmount) < 0n) throw new DomainRuleError('The deposit must not be negative', 'depositAmount');
  return [{ type: 'lease_started', data: { leaseId: command.leaseId, ...command.terms } }];
}

export function abandonLeaseStart(command: AbandonLeaseStart, state: LeaseState): DomainEvent[] {
  // Started meanwhile: the lease stands. Abandoned before: nothing more to record.
  if (state.status !== 'none') return [];
  return [{ type: 'lease_start_abandoned', data: { leaseId: command.leaseId, unitId: command.unitId, reason: command.reason } }];
}

export function endLease(command: EndLease, state: LeaseState): DomainEvent[] {
  if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Lease not found');
  if (state.status === 'ended') {
    // Ending it again on the same day is a retry: nothing more to record.
    if (state.endDate === command.endDate) return [];
    throw new ConflictError(`This lease already ended on ${state.endDate}`);
  }
  const { customerId, unitId, startDate } = state.terms;
  // ISO dates (YYYY-MM-DD) compare correctly as text.
  if (command.endDate < startDate) throw new DomainRuleError(`The end date must not be before the start date ${startDate}`, 'endDate');
  return [{ type: 'lease_ended', data: { leaseId: command.leaseId, customerId, unitId, endDate: command.endDate } }];
}

export function recordRentBilled(command: RecordRentBilled, state: LeaseState): DomainEvent[] {
  if (state.status !== 'active' && state.status !== 'ended') throw new NotFoundError('Lease not found');
  const { billedThrough } = state;
  // Billed already (a retry, or another run got there first): nothing more to record.
  if (billedThrough !== null && command.periodStart <= billedThrough) return [];
  const expectedStart = billedThrough === null ? state.terms.startDate : addDays(billedThrough, 1);
  if (command.periodStart !== expectedStart) throw new ConflictError(`The next period to bill starts on ${expectedStart}, not ${command.periodStart}`);
  const { leaseId, invoiceId, periodStart, periodEnd } = command;
  return [{ type: 'lease_rent_billed', data: { leaseId, invoiceId, periodStart, periodEnd } }];
}

export function decideLease(command: LeaseCommand, state: LeaseState): DomainEvent[] {
  switch (command.type) {
    case 'StartLease':
      return startLease(command, state);
    case 'EndLease':
      return endLease(command, state);
    case 'AbandonLeaseStart':
      return abandonLeaseStart(command, state);
    case 'RecordRentBilled':
      return recordRentBilled(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
    }
  }
}
