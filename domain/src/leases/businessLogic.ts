import type { DeskPaymentMethod } from '@storage/contracts/enums';
import type { DomainEvent } from '@storage/contracts/events';
import { overLimitMessage, toCents, withinLimit } from '@storage/contracts/money';
import { addDays } from '../billing/calendar.ts';
import type { RentalExtras } from '../billing/offers.ts';
import { rateOn } from '../billing/periods.ts';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import type { LeaseState, LeaseTerms, ScheduledRentChange } from './lease.ts';

/** extras: the protection plan and the promotion chosen, as checked against the facility's offers (absent: none). */
export type StartLease = { type: 'StartLease'; leaseId: string; terms: LeaseTerms; extras?: RentalExtras };
export type EndLease = { type: 'EndLease'; leaseId: string; endDate: string };
/** The lease's unit was taken but the lease never started: it never will. */
export type AbandonLeaseStart = { type: 'AbandonLeaseStart'; leaseId: string; unitId: string; reason: string };
/** The billing engine invoiced the lease's rent for this period (the next one after what is billed). */
export type RecordRentBilled = { type: 'RecordRentBilled'; leaseId: string; invoiceId: string; periodStart: string; periodEnd: string };
/**
 * A new monthly rate from effectiveDate; its notice is sent `today` (the facility's date), and it
 * takes effect no sooner than noticeDays after it.
 */
export type ScheduleRentChange = {
  type: 'ScheduleRentChange';
  leaseId: string;
  changeId: string;
  newRate: string;
  effectiveDate: string;
  reason: string | null;
  today: string;
  noticeDays: number;
};
/** Cancels a scheduled rent change that has not taken effect (`today`: the facility's date). */
export type CancelRentChange = { type: 'CancelRentChange'; leaseId: string; changeId: string; reason: string; today: string };
/**
 * A move-out on a day after `today` (the facility's date): recorded now, done on endDate by the
 * facility's day (CompleteMoveOut). deposit: what becomes of the deposit then (null: not touched).
 */
export type ScheduleMoveOut = {
  type: 'ScheduleMoveOut';
  leaseId: string;
  endDate: string;
  today: string;
  deposit: 'return' | 'apply' | null;
  depositMethod: DeskPaymentMethod | null;
};
/** Calls off the scheduled move-out before its day (`today`: the facility's date). */
export type CancelMoveOut = { type: 'CancelMoveOut'; leaseId: string; today: string; reason: string | null };
/** The facility's day (`today`) ends a lease whose scheduled move-out has come, on the scheduled day. */
export type CompleteMoveOut = { type: 'CompleteMoveOut'; leaseId: string; today: string };
export type LeaseCommand =
  | StartLease
  | EndLease
  | AbandonLeaseStart
  | RecordRentBilled
  | ScheduleRentChange
  | CancelRentChange
  | ScheduleMoveOut
  | CancelMoveOut
  | CompleteMoveOut;

export function startLease(command: StartLease, state: LeaseState): DomainEvent[] {
  if (state.status === 'abandoned') throw new ConflictError('This move-in took too long and its unit was let go. Please start the lease again.');
  if (state.status !== 'none') throw new ConflictError('This lease already exists');
  const { monthlyRate, depositAmount } = command.terms;
  const rateProblem = monthlyRateProblem(monthlyRate);
  if (rateProblem) throw new DomainRuleError(`monthlyRate: ${rateProblem}`, 'monthlyRate');
  if (depositAmount !== null && toCents(depositAmount) < 0n) throw new DomainRuleError('depositAmount: must not be negative', 'depositAmount');
  if (depositAmount !== null && !withinLimit(depositAmount, 'deposit')) {
    throw new DomainRuleError(`depositAmount: ${overLimitMessage('deposit')}`, 'depositAmount');
  }
  const { leaseId, terms } = command;
  const started: DomainEvent[] = [{ type: 'lease_started', data: { leaseId, ...terms } }];
  // In the same append as the start, so the move-in invoice is billed with them.
  const { protection, promotion } = command.extras ?? { protection: null, promotion: null };
  const { customerId, startDate } = terms;
  if (protection) {
    started.push({ type: 'lease_protection_changed', data: { leaseId, customerId, protection, effectiveDate: startDate, reason: 'chosen_at_move_in' } });
  }
  if (promotion) started.push({ type: 'lease_promotion_applied', data: { leaseId, customerId, promotion } });
  return started;
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

export function scheduleMoveOut(command: ScheduleMoveOut, state: LeaseState): DomainEvent[] {
  if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Lease not found');
  const { endDate, today } = command;
  if (state.status === 'ended') {
    // Moved out on that day already (the day came and the process ran): a retry, nothing more to record.
    if (state.endDate === endDate) return [];
    throw new ConflictError(`This lease already ended on ${state.endDate}`);
  }
  if (endDate <= today) throw new DomainRuleError(`endDate: a move-out on or before today (${today}) happens at once, not on a schedule`, 'endDate');
  const { customerId, unitId, startDate } = state.terms;
  if (endDate < startDate) throw new DomainRuleError(`The end date must not be before the start date ${startDate}`, 'endDate');
  if (state.moveOut) {
    // Scheduled for that day already: a retry, and the first choice of the deposit stands.
    if (state.moveOut.endDate === endDate) return [];
    throw new ConflictError(`This lease already moves out on ${state.moveOut.endDate}: cancel that move-out first`, 'endDate');
  }
  const { leaseId, deposit, depositMethod } = command;
  return [
    {
      type: 'lease_move_out_scheduled',
      data: { leaseId, customerId, unitId, endDate, scheduledOn: today, deposit, depositMethod: deposit === 'return' ? (depositMethod ?? 'check') : null },
    },
  ];
}

export function cancelMoveOut(command: CancelMoveOut, state: LeaseState): DomainEvent[] {
  if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Lease not found');
  if (state.status === 'ended') throw new ConflictError(`This lease ended on ${state.endDate}`);
  // Nothing scheduled (cancelled already, a retry): nothing more to record.
  const { moveOut } = state;
  if (!moveOut) return [];
  if (moveOut.endDate <= command.today) throw new ConflictError(`The move-out on ${moveOut.endDate} is due: it can no longer be cancelled`);
  const { leaseId, today, reason } = command;
  const { customerId, unitId } = state.terms;
  return [{ type: 'lease_move_out_cancelled', data: { leaseId, customerId, unitId, endDate: moveOut.endDate, cancelledOn: today, reason } }];
}

export function completeMoveOut(command: CompleteMoveOut, state: LeaseState): DomainEvent[] {
  // Ended already (by this process before, or by staff at the desk), cancelled, or not due yet: nothing to do.
  if (state.status !== 'active' || !state.moveOut || state.moveOut.endDate > command.today) return [];
  const { customerId, unitId } = state.terms;
  return [{ type: 'lease_ended', data: { leaseId: command.leaseId, customerId, unitId, endDate: state.moveOut.endDate } }];
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

/** The scheduled rent change of the lease that has not taken effect by `today` (at most one); null: none. */
export function pendingRentChange(state: LeaseState, today: string): ScheduledRentChange | null {
  if (state.status !== 'active' && state.status !== 'ended') return null;
  return state.rentChanges.find((change) => !change.cancelled && change.effectiveDate > today) ?? null;
}

/** The rate the lease is billed at for a period starting on `date` (its own, or its changes'). */
export function leaseRateOn(state: Extract<LeaseState, { status: 'active' | 'ended' }>, date: string): string {
  return rateOn({ monthlyRate: state.terms.monthlyRate, rentChanges: state.rentChanges.filter((change) => !change.cancelled) }, date);
}

/** The first day a rent change noticed on `today` may take effect. */
export function earliestRentChangeDate(today: string, noticeDays: number): string {
  return addDays(today, noticeDays);
}

/**
 * The first day a rent change noticed on `today` may take effect for a lease (or, with the latest
 * of their dates, every lease of a facility): after the notice, after the lease's start and after
 * the rent already invoiced (scheduleRentChange refuses anything sooner). In the last days of a
 * month the next month is invoiced already, so this can be weeks after the notice alone allows.
 */
export function earliestLeaseRentChangeDate(today: string, noticeDays: number, lease: { startDate: string | null; billedThrough: string | null }): string {
  const dates = [earliestRentChangeDate(today, noticeDays)];
  if (lease.startDate !== null) dates.push(addDays(lease.startDate, 1));
  if (lease.billedThrough !== null) dates.push(addDays(lease.billedThrough, 1));
  return dates.reduce((latest, date) => (date > latest ? date : latest));
}

/** Why a rate cannot be what a lease pays a month (more than 0.00, within the limit of a unit's rate), or null. */
export function monthlyRateProblem(rate: string): string | null {
  if (toCents(rate) <= 0n) return 'must be more than 0.00';
  if (!withinLimit(rate, 'monthlyRate')) return overLimitMessage('monthlyRate');
  return null;
}

export function scheduleRentChange(command: ScheduleRentChange, state: LeaseState): DomainEvent[] {
  if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Lease not found');
  // Scheduled already (a retry, a repeat of a bulk change): nothing more to record.
  if (state.rentChanges.some((change) => change.changeId === command.changeId)) return [];
  if (state.status === 'ended') throw new ConflictError(`This lease ended on ${state.endDate}: only an active lease gets a rent change`);
  const { today, noticeDays, effectiveDate, newRate } = command;
  const rateProblem = monthlyRateProblem(newRate);
  if (rateProblem) throw new DomainRuleError(`newRate: ${rateProblem}`, 'newRate');
  const earliest = earliestRentChangeDate(today, noticeDays);
  if (effectiveDate < earliest) {
    throw new DomainRuleError(`effectiveDate: must be on or after ${earliest} (${noticeDays} days' notice from today, ${today})`, 'effectiveDate');
  }
  const { startDate, customerId } = state.terms;
  if (effectiveDate <= startDate) throw new DomainRuleError(`effectiveDate: must be after the lease's start date ${startDate}`, 'effectiveDate');
  if (state.billedThrough !== null && effectiveDate <= state.billedThrough) {
    throw new DomainRuleError(`effectiveDate: rent is already invoiced through ${state.billedThrough}; choose a later date`, 'effectiveDate');
  }
  const pending = pendingRentChange(state, today);
  if (pending) {
    throw new ConflictError(`This lease already has a rent change to ${pending.newRate} from ${pending.effectiveDate}: cancel it first`, 'effectiveDate');
  }
  const currentRate = leaseRateOn(state, effectiveDate);
  if (toCents(currentRate) === toCents(newRate)) throw new DomainRuleError(`newRate: the rate is ${currentRate} already`, 'newRate');
  const { leaseId, changeId, reason } = command;
  return [{ type: 'lease_rent_change_scheduled', data: { leaseId, customerId, changeId, currentRate, newRate, noticeDate: today, effectiveDate, reason } }];
}

export function cancelRentChange(command: CancelRentChange, state: LeaseState): DomainEvent[] {
  if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Lease not found');
  const change = state.rentChanges.find((c) => c.changeId === command.changeId);
  if (!change) throw new NotFoundError('Rent change not found');
  // Cancelled already (a retry): nothing more to record.
  if (change.cancelled) return [];
  if (change.effectiveDate <= command.today) throw new ConflictError(`This rent change took effect on ${change.effectiveDate}: schedule a new one instead`);
  if (state.billedThrough !== null && change.effectiveDate <= state.billedThrough) {
    throw new ConflictError(`Rent at the new rate is already invoiced (through ${state.billedThrough}): schedule a new change instead`);
  }
  return [{ type: 'lease_rent_change_cancelled', data: { leaseId: command.leaseId, changeId: command.changeId, reason: command.reason } }];
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
    case 'ScheduleRentChange':
      return scheduleRentChange(command, state);
    case 'CancelRentChange':
      return cancelRentChange(command, state);
    case 'ScheduleMoveOut':
      return scheduleMoveOut(command, state);
    case 'CancelMoveOut':
      return cancelMoveOut(command, state);
    case 'CompleteMoveOut':
      return completeMoveOut(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
    }
  }
}
