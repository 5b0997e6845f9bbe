import { type DelinquencyStep, MAX_PAUSE_DAYS } from '@storage/contracts/delinquency';
import type { DomainEvent } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import { addDays } from '../billing/calendar.ts';
import { ConflictError, DomainRuleError } from '../commands/errors.ts';
import { type DelinquencyState, pausedOn, stepTaken } from './delinquency.ts';

/** An open invoice of the renter past its due date, as its own stream has it. */
export interface PastDueInvoice {
  invoiceId: string;
  dueDate: string;
  /** Still owed on it. */
  open: string;
}

export function pastDueBalance(invoices: readonly PastDueInvoice[]): string {
  return fromCents(invoices.reduce((sum, i) => sum + toCents(i.open), 0n));
}

/** The invoice whose due date the schedule counts from: the oldest past-due open one (its id breaks ties). */
export function drivingInvoice<T extends PastDueInvoice>(invoices: readonly T[]): T | null {
  let oldest: T | null = null;
  for (const invoice of invoices) {
    if (toCents(invoice.open) <= 0n) continue;
    if (!oldest || invoice.dueDate < oldest.dueDate || (invoice.dueDate === oldest.dueDate && invoice.invoiceId < oldest.invoiceId)) oldest = invoice;
  }
  return oldest;
}

export interface DelinquencyDay {
  customerId: string;
  /** The facility's date the day runs for. */
  today: string;
  schedule: readonly DelinquencyStep[];
  /** The renter's open invoices due before today (sent or overdue). */
  invoices: readonly PastDueInvoice[];
  /** The past-due balance at or below which the renter clears (the lockout's threshold). */
  clearAt: string;
}

/**
 * One day of a renter's schedule. Unless paused, every step whose day (after the driving invoice's
 * due date) has come, not yet taken for that invoice, fires while the past-due balance is above its
 * threshold, in schedule order (a catch-up fires every missed one). When none fires and the renter
 * has steps since the last clear, a past-due balance at or below the clearing threshold clears them.
 */
export function decideDelinquencyDay(state: DelinquencyState, day: DelinquencyDay): DomainEvent[] {
  const pastDue = pastDueBalance(day.invoices);
  const driving = drivingInvoice(day.invoices);
  const events: DomainEvent[] = [];
  if (driving && !pausedOn(state, day.today)) {
    for (const step of day.schedule) {
      if (addDays(driving.dueDate, step.day) > day.today) continue;
      if (stepTaken(state, driving.invoiceId, step.kind) || toCents(pastDue) <= toCents(step.threshold)) continue;
      events.push({
        type: 'delinquency_step_taken',
        data: { customerId: day.customerId, kind: step.kind, day: step.day, invoiceId: driving.invoiceId, date: day.today, pastDue },
      });
    }
  }
  if (events.length > 0) return events;
  return decideClear(state, {
    customerId: day.customerId,
    date: day.today,
    pastDue,
    clearAt: day.clearAt,
    reason: `Past-due balance ${pastDue} is at or below ${day.clearAt}`,
  });
}

export interface ClearCheck {
  customerId: string;
  date: string;
  pastDue: string;
  clearAt: string;
  reason: string;
}

/** Clears a renter with steps since the last clear whose past-due balance is at or below the threshold; otherwise nothing. */
export function decideClear(state: DelinquencyState, check: ClearCheck): DomainEvent[] {
  if (state.sinceClear === 0 || toCents(check.pastDue) > toCents(check.clearAt)) return [];
  return [{ type: 'delinquency_cleared', data: { customerId: check.customerId, date: check.date, pastDue: check.pastDue, reason: check.reason } }];
}

export interface PauseDelinquency {
  customerId: string;
  until: string;
  reason: string;
  today: string;
}

/** A pause: until after today and at most MAX_PAUSE_DAYS ahead. The same pause again records nothing. */
export function decidePause(state: DelinquencyState, command: PauseDelinquency): DomainEvent[] {
  if (command.until <= command.today) throw new DomainRuleError(`until: must be after today (${command.today})`, 'until');
  const latest = addDays(command.today, MAX_PAUSE_DAYS);
  if (command.until > latest) throw new DomainRuleError(`until: must be at most ${MAX_PAUSE_DAYS} days ahead (${latest})`, 'until');
  if (state.pause?.until === command.until && state.pause.reason === command.reason) return [];
  return [{ type: 'delinquency_paused', data: { customerId: command.customerId, until: command.until, reason: command.reason } }];
}

/** Ends a pause that still holds today; a renter not paused cannot be resumed (409). */
export function decideResume(state: DelinquencyState, command: { customerId: string; reason: string; today: string }): DomainEvent[] {
  if (!pausedOn(state, command.today)) throw new ConflictError("This renter's schedule is not paused");
  return [{ type: 'delinquency_resumed', data: { customerId: command.customerId, reason: command.reason } }];
}
