import { type DelinquencyStep, MAX_PAUSE_DAYS } from '@storage/contracts/delinquency';
import type { DomainEvent } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import { addDays } from '../billing/calendar.ts';
import { ConflictError, DomainRuleError } from '../commands/errors.ts';
import { type DelinquencyState, evolveDelinquency, pausedOn, type StepTaken } from './delinquency.ts';

/** An open invoice of the renter past its due date, as its own stream has it. */
export interface PastDueInvoice {
  invoiceId: string;
  dueDate: string;
  /** The day it is late from (receivables' lateFrom): its due date, or the later day the renter came to owe it. */
  lateFrom: string;
  /** Still owed on it. */
  open: string;
}

export function pastDueBalance(invoices: readonly PastDueInvoice[]): string {
  return fromCents(invoices.reduce((sum, i) => sum + toCents(i.open), 0n));
}

/** Late longest first: the order in which invoices are named by the steps (ids break ties). */
function lateLongestFirst(a: PastDueInvoice, b: PastDueInvoice): number {
  if (a.lateFrom !== b.lateFrom) return a.lateFrom < b.lateFrom ? -1 : 1;
  if (a.dueDate !== b.dueDate) return a.dueDate < b.dueDate ? -1 : 1;
  return a.invoiceId < b.invoiceId ? -1 : a.invoiceId > b.invoiceId ? 1 : 0;
}

/** The steps of the renter's current episode: those taken since the schedule last cleared them. */
export function episodeSteps(state: DelinquencyState): readonly StepTaken[] {
  return state.steps.slice(state.steps.length - state.sinceClear);
}

export interface NextDelinquencyStep {
  step: DelinquencyStep;
  /** The invoice it counts from. */
  invoice: PastDueInvoice;
  /** The first day it may be taken. */
  on: string;
}

/**
 * The next step of the renter's schedule, the invoice it counts from, and the first day it may be
 * taken; null when the episode has taken every step or no past-due invoice is left to name.
 *
 * The rule: an episode runs from the last clear, and takes the schedule's steps in order, each
 * only once every step before it has been taken in the episode. A step names the invoice late
 * longest that it was not yet taken for since that invoice became late (once per invoice and kind
 * for one debt, so a clear does not send the same debt round again; a refund reopening a paid
 * invoice is a new debt), and comes on the later of its day counted from the day that invoice is
 * late from (its due date, or the later day it was sent or reopened) and the day the step before
 * it was taken plus the days between the two in the schedule. So a reopened old invoice, a move-in
 * billed for past days, a pause or a catch-up over many days never takes several steps at once:
 * each step keeps the schedule's days after the one before it.
 */
export function nextDelinquencyStep(
  state: DelinquencyState,
  schedule: readonly DelinquencyStep[],
  invoices: readonly PastDueInvoice[],
): NextDelinquencyStep | null {
  const episode = episodeSteps(state);
  const index = schedule.findIndex((step) => !episode.some((taken) => taken.kind === step.kind));
  const step = schedule[index];
  if (!step) return null;
  const takenFor = (i: PastDueInvoice) => state.steps.some((s) => s.invoiceId === i.invoiceId && s.kind === step.kind && s.date >= i.lateFrom);
  const owed = invoices.filter((i) => toCents(i.open) > 0n && !takenFor(i));
  const invoice = owed.sort(lateLongestFirst)[0];
  if (!invoice) return null;
  let on = addDays(invoice.lateFrom, step.day);
  const before = schedule[index - 1];
  const beforeTaken = before && episode.findLast((taken) => taken.kind === before.kind);
  if (before && beforeTaken) {
    const spaced = addDays(beforeTaken.date, step.day - before.day);
    if (spaced > on) on = spaced;
  }
  return { step, invoice, on };
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
 * One day of a renter's schedule. Unless paused, the next step (nextDelinquencyStep) is taken when
 * its day has come and the past-due balance is above its threshold; a step held by its threshold
 * holds the ones after it. A step taken today makes the next one due its days later, so one day
 * takes one step (several only where the schedule puts them on one day). When none is taken and
 * the renter has steps since the last clear, a past-due balance at or below the clearing
 * threshold clears them.
 */
export function decideDelinquencyDay(state: DelinquencyState, day: DelinquencyDay): DomainEvent[] {
  const pastDue = pastDueBalance(day.invoices);
  const events: DomainEvent[] = [];
  if (!pausedOn(state, day.today)) {
    let episode = state;
    for (;;) {
      const next = nextDelinquencyStep(episode, day.schedule, day.invoices);
      if (!next || next.on > day.today || toCents(pastDue) <= toCents(next.step.threshold)) break;
      const event: DomainEvent = {
        type: 'delinquency_step_taken',
        data: { customerId: day.customerId, kind: next.step.kind, day: next.step.day, invoiceId: next.invoice.invoiceId, date: day.today, pastDue },
      };
      events.push(event);
      episode = evolveDelinquency(episode, event);
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
