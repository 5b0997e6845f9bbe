import { singleLine } from '@storage/contracts/billing';
import { clearingThreshold, type DelinquencyStep, defaultDelinquencySteps } from '@storage/contracts/delinquency';
import type { DomainEvent } from '@storage/contracts/events';
import { toCents } from '@storage/contracts/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CurrentInvoice, openInvoices, pastDue } from '../accounts/receivables.ts';
import { addDays } from '../billing/calendar.ts';
import { ConflictError, DomainRuleError } from '../commands/errors.ts';
import { decideInvoice, type InvoiceCommand } from '../invoices/businessLogic.ts';
import { evolveInvoice, type InvoiceState, initialInvoiceState, leftToRefund, openBalance } from '../invoices/invoice.ts';
import { decideClear, decideDelinquencyDay, decidePause, decideResume, episodeSteps, type PastDueInvoice } from './businessLogic.ts';
import { evolveDelinquency, initialDelinquencyState } from './delinquency.ts';
import { scheduleInvoices } from './run.ts';

const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const older = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e05';
const newer = '8c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e06';
const state = (...events: DomainEvent[]) => events.reduce(evolveDelinquency, initialDelinquencyState);
const december: PastDueInvoice = { invoiceId: older, dueDate: '2026-12-01', lateFrom: '2026-12-01', open: '120.00' };
const january: PastDueInvoice = { invoiceId: newer, dueDate: '2027-01-01', lateFrom: '2027-01-01', open: '120.00' };
const day = (today: string, invoices: PastDueInvoice[] = [december], schedule: readonly DelinquencyStep[] = defaultDelinquencySteps) =>
  ({ customerId, today, schedule, invoices, clearAt: clearingThreshold(schedule) }) as const;
const kinds = (events: DomainEvent[]) => events.map((e) => (e.type === 'delinquency_step_taken' ? `${e.data.kind}@${e.data.day}` : e.type));
const taken = (kind: DelinquencyStep['kind'], dayNumber: number, date: string, invoiceId = older): DomainEvent => ({
  type: 'delinquency_step_taken',
  data: { customerId, kind, day: dayNumber, invoiceId, date, pastDue: '120.00' },
});

describe('the daily steps', () => {
  it('fires nothing before the first step day, then the step on its day, naming the rule, the invoice, the date and the past-due balance', () => {
    expect(decideDelinquencyDay(state(), day('2026-12-05'))).toEqual([]);
    expect(decideDelinquencyDay(state(), day('2026-12-06'))).toEqual([
      { type: 'delinquency_step_taken', data: { customerId, kind: 'late_notice', day: 5, invoiceId: older, date: '2026-12-06', pastDue: '120.00' } },
    ]);
  });

  it('fires a step once per invoice and kind', () => {
    expect(decideDelinquencyDay(state(taken('late_notice', 5, '2026-12-06')), day('2026-12-07'))).toEqual([]);
  });

  it('takes one step a day when it runs late: the next keeps its days after the one before it', () => {
    // Late notice taken on its day; the run comes back six weeks later: the lockout now, then the
    // pre-lien notice 15 days after the lockout (its days after the lockout in the schedule), and so on.
    let renter = state(taken('late_notice', 5, '2026-12-06'));
    const steps: string[] = [];
    for (let date = '2027-01-15'; date <= '2027-03-31'; date = addDays(date, 1)) {
      const events = decideDelinquencyDay(renter, day(date));
      for (const e of events) if (e.type === 'delinquency_step_taken') steps.push(`${e.data.kind} ${e.data.date}`);
      renter = events.reduce(evolveDelinquency, renter);
    }
    expect(steps).toEqual(['lockout 2027-01-15', 'pre_lien_notice 2027-01-30', 'lien 2027-02-14', 'auction_scheduled 2027-03-01']);
    // One run long after every step's day takes the next step only.
    expect(kinds(decideDelinquencyDay(state(), day('2027-06-01')))).toEqual(['late_notice@5']);
  });

  it('counts from the invoice late longest, and the past-due balance is every past-due invoice', () => {
    const events = decideDelinquencyDay(state(), day('2027-01-07', [january, december]));
    expect(events).toEqual([
      { type: 'delinquency_step_taken', data: { customerId, kind: 'late_notice', day: 5, invoiceId: older, date: '2027-01-07', pastDue: '240.00' } },
    ]);
  });

  it('counts from the day a refund reopened an old paid invoice, not from its due date', () => {
    // Paid in December, $20 of it refunded on June 10: owed again from June 10.
    const reopened: PastDueInvoice = { invoiceId: older, dueDate: '2026-12-01', lateFrom: '2027-06-10', open: '20.00' };
    expect(decideDelinquencyDay(state(), day('2027-06-11', [reopened]))).toEqual([]);
    expect(decideDelinquencyDay(state(), day('2027-06-14', [reopened]))).toEqual([]);
    expect(kinds(decideDelinquencyDay(state(), day('2027-06-15', [reopened])))).toEqual(['late_notice@5']);
    const noticed = state(taken('late_notice', 5, '2027-06-15'));
    expect(decideDelinquencyDay(noticed, day('2027-06-24', [reopened]))).toEqual([]);
    expect(kinds(decideDelinquencyDay(noticed, day('2027-06-25', [reopened])))).toEqual(['lockout@15']);
  });

  it('counts an invoice for a past period (a move-in converted with a past date) from the day it was issued', () => {
    const moveIn: PastDueInvoice = { invoiceId: older, dueDate: '2026-10-15', lateFrom: '2026-12-01', open: '140.00' };
    expect(decideDelinquencyDay(state(), day('2026-12-02', [moveIn]))).toEqual([]);
    expect(kinds(decideDelinquencyDay(state(), day('2026-12-06', [moveIn])))).toEqual(['late_notice@5']);
  });

  it('holds every step while paused (until the day included), then goes on one step at a time', () => {
    const paused = state({ type: 'delinquency_paused', data: { customerId, until: '2026-12-20', reason: 'Promised to pay on the 20th' } });
    expect(decideDelinquencyDay(paused, day('2026-12-20'))).toEqual([]);
    expect(kinds(decideDelinquencyDay(paused, day('2026-12-21')))).toEqual(['late_notice@5']);
    const noticed = evolveDelinquency(paused, taken('late_notice', 5, '2026-12-21'));
    expect(decideDelinquencyDay(noticed, day('2026-12-30'))).toEqual([]);
    expect(kinds(decideDelinquencyDay(noticed, day('2026-12-31')))).toEqual(['lockout@15']);
    const resumed = evolveDelinquency(paused, { type: 'delinquency_resumed', data: { customerId, reason: 'Did not pay' } });
    expect(kinds(decideDelinquencyDay(resumed, day('2026-12-16')))).toEqual(['late_notice@5']);
  });

  it('takes a step only while the past-due balance is above its threshold, and a step it holds holds the ones after it', () => {
    const schedule: DelinquencyStep[] = [
      { kind: 'late_notice', day: 5, threshold: '0.00' },
      { kind: 'lockout', day: 15, threshold: '0.00' },
      { kind: 'pre_lien_notice', day: 30, threshold: '120.00' },
      { kind: 'lien', day: 45, threshold: '0.00' },
    ];
    const lockedOut = state(taken('late_notice', 5, '2026-12-06'), taken('lockout', 15, '2026-12-16'));
    // 120.00 past due: the pre-lien notice waits, and the lien, whose threshold it passes, waits behind it.
    expect(decideDelinquencyDay(lockedOut, day('2027-01-31', [december], schedule))).toEqual([]);
    const more = { ...december, open: '120.01' };
    expect(kinds(decideDelinquencyDay(lockedOut, day('2026-12-31', [more], schedule)))).toEqual(['pre_lien_notice@30']);
  });

  it('starts over from the first step after a clear, and does not send the same debt round again', () => {
    const cleared = state(taken('late_notice', 5, '2026-12-06'), taken('lockout', 15, '2026-12-16'), {
      type: 'delinquency_cleared',
      data: { customerId, date: '2026-12-20', pastDue: '0.00', reason: 'Paid' },
    });
    // December's debt came back through a refund on January 3: a new debt, from the first step.
    const reopened = { ...december, lateFrom: '2027-01-03' };
    expect(kinds(decideDelinquencyDay(cleared, day('2027-01-08', [reopened])))).toEqual(['late_notice@5']);
    // January's own invoice, left unpaid: the first step too, never the lockout straight away.
    expect(kinds(decideDelinquencyDay(cleared, day('2027-01-31', [january])))).toEqual(['late_notice@5']);
    // What was left of December without a refund is the debt its steps were taken for: not again.
    expect(decideDelinquencyDay(cleared, day('2027-01-31', [{ ...december, open: '10.00' }], [{ kind: 'late_notice', day: 5, threshold: '0.00' }]))).toEqual(
      [],
    );
  });

  it('clears a delinquent renter whose past-due balance fell to the lockout threshold, and only one with steps since the last clear', () => {
    const delinquent = state(taken('late_notice', 5, '2026-12-06'));
    expect(decideDelinquencyDay(delinquent, day('2026-12-08', []))).toEqual([
      { type: 'delinquency_cleared', data: { customerId, date: '2026-12-08', pastDue: '0.00', reason: 'Past-due balance 0.00 is at or below 0.00' } },
    ]);
    expect(decideDelinquencyDay(state(), day('2026-12-08', []))).toEqual([]);
    const cleared = evolveDelinquency(delinquent, decideDelinquencyDay(delinquent, day('2026-12-08', []))[0]!);
    expect(decideDelinquencyDay(cleared, day('2026-12-09', []))).toEqual([]);
  });
});

describe('clearing after a payment', () => {
  const check = (pastDue: string, clearAt = '0.00') => ({ customerId, date: '2026-12-20', pastDue, clearAt, reason: 'Payment of $120.00 (Cash) on INV-1' });
  const delinquent = state(taken('lockout', 15, '2026-12-16'));

  it('clears at or below the threshold, not above it, and a repeat decides nothing', () => {
    expect(kinds(decideClear(delinquent, check('0.00')))).toEqual(['delinquency_cleared']);
    expect(kinds(decideClear(delinquent, check('50.00', '50.00')))).toEqual(['delinquency_cleared']);
    expect(decideClear(delinquent, check('50.01', '50.00'))).toEqual([]);
    const cleared = decideClear(delinquent, check('0.00')).reduce(evolveDelinquency, delinquent);
    expect(decideClear(cleared, check('0.00'))).toEqual([]);
  });

  it('leaves a renter with no steps alone', () => {
    expect(decideClear(state(), check('0.00'))).toEqual([]);
  });
});

describe('pause and resume', () => {
  const today = '2026-12-10';
  it('pauses until a date after today and at most 90 days ahead', () => {
    expect(decidePause(state(), { customerId, until: '2026-12-11', reason: 'Promise', today })).toEqual([
      { type: 'delinquency_paused', data: { customerId, until: '2026-12-11', reason: 'Promise' } },
    ]);
    expect(() => decidePause(state(), { customerId, until: today, reason: 'Promise', today })).toThrow(DomainRuleError);
    expect(decidePause(state(), { customerId, until: '2027-03-10', reason: 'Promise', today })).toHaveLength(1);
    expect(() => decidePause(state(), { customerId, until: '2027-03-11', reason: 'Promise', today })).toThrow(/at most 90 days/);
  });

  it('resumes only a pause that still holds', () => {
    const paused = state({ type: 'delinquency_paused', data: { customerId, until: '2026-12-12', reason: 'Promise' } });
    expect(kinds(decideResume(paused, { customerId, reason: 'Paid part', today }))).toEqual(['delinquency_resumed']);
    expect(() => decideResume(paused, { customerId, reason: 'Late', today: '2026-12-13' })).toThrow(ConflictError);
    expect(() => decideResume(state(), { customerId, reason: 'x', today })).toThrow(ConflictError);
  });
});

describe('every step has its predecessors (generated histories)', () => {
  const kindsInOrder = ['late_notice', 'lockout', 'pre_lien_notice', 'lien', 'auction_scheduled'] as const;
  /** A schedule as owners may set one: kinds in order, days strictly increasing, a threshold each. */
  const schedules = fc
    .tuple(
      fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }),
      fc.array(fc.constantFrom('0.00', '0.00', '30.00', '150.00'), { minLength: 5, maxLength: 5 }),
    )
    .map(([days, thresholds]) =>
      [...days].sort((a, b) => a - b).map((d, i): DelinquencyStep => ({ kind: kindsInOrder[i]!, day: d, threshold: thresholds[i]! })),
    );
  /** Now and then (one day in `every`), else nothing. */
  const sometimes = <T>(arbitrary: fc.Arbitrary<T>, every: number) => fc.oneof({ arbitrary: fc.constant(null), weight: every - 1 }, { arbitrary, weight: 1 });
  /** One day: what happens on the renter's account, and whether the billing day runs (a day it does not: downtime). */
  const days = fc.array(
    fc.record({
      issue: sometimes(fc.record({ dueIn: fc.integer({ min: -45, max: 10 }), cents: fc.integer({ min: 1000, max: 20000 }) }), 12),
      pay: sometimes(fc.integer({ min: 100, max: 30000 }), 10),
      refund: sometimes(fc.record({ pick: fc.nat(), cents: fc.integer({ min: 100, max: 5000 }) }), 10),
      runs: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 }),
    }),
    { minLength: 20, maxLength: 200 },
  );

  it('takes no step before every earlier step of its episode, each its days after the one before it and after its invoice is late', () => {
    fc.assert(
      fc.property(schedules, days, (schedule, history) => {
        const clearAt = clearingThreshold(schedule);
        const invoices = new Map<string, InvoiceState>();
        // The day each invoice is late from, as the story tells it: the later of its due date and
        // the day it was issued, or the day a refund reopened it after it was paid.
        const lateSince = new Map<string, string>();
        let renter = state();
        let n = 0;
        const apply = (invoiceId: string, events: DomainEvent[]) =>
          invoices.set(invoiceId, events.reduce(evolveInvoice, invoices.get(invoiceId) ?? initialInvoiceState));
        const decide = (invoiceId: string, command: InvoiceCommand) => apply(invoiceId, decideInvoice(command, invoices.get(invoiceId)!));
        history.forEach((happening, i) => {
          const today = addDays('2027-01-01', i);
          if (happening.issue) {
            // Issued today, due any day from 45 days ago (a past period) to 10 days ahead.
            const invoiceId = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
            const amount = (happening.issue.cents / 100).toFixed(2);
            const fields = {
              invoiceNumber: `INV-${n}`,
              customerId,
              leaseId: null,
              amount,
              dueDate: addDays(today, happening.issue.dueIn),
              status: 'draft' as const,
              description: null,
            };
            apply(invoiceId, decideInvoice({ type: 'GenerateInvoice', invoiceId, fields: { ...fields, lines: [singleLine(fields)] } }, initialInvoiceState));
            decide(invoiceId, { type: 'SendInvoice', invoiceId, sentOn: today });
            const dueDate = addDays(today, happening.issue.dueIn);
            lateSince.set(invoiceId, [dueDate, today].sort()[1]!);
          }
          if (happening.pay) {
            const oldest = openInvoices([...invoices.values()])[0];
            if (oldest) {
              const cents = Math.min(happening.pay, Number(toCents(openBalance(oldest))));
              const payment = {
                paymentId: `pay-${i}`,
                amount: (cents / 100).toFixed(2),
                method: 'cash' as const,
                paidDate: today,
                stripePaymentIntentId: null,
              };
              decide(oldest.invoiceId, { type: 'RecordPayment', invoiceId: oldest.invoiceId, payment });
              renter = decideClear(renter, { customerId, date: today, pastDue: pastDue([...invoices.values()], today), clearAt, reason: 'Paid' }).reduce(
                evolveDelinquency,
                renter,
              );
            }
          }
          if (happening.refund) {
            const paid = [...invoices.values()].filter((v): v is CurrentInvoice => v.status === 'current' && v.payments.length > 0);
            const invoice = paid[happening.refund.pick % Math.max(paid.length, 1)];
            const payment = invoice?.payments.find((p) => toCents(leftToRefund(p)) > 0n);
            if (invoice && payment) {
              const cents = Math.min(happening.refund.cents, Number(toCents(leftToRefund(payment))));
              const refund = {
                refundId: `refund-${i}`,
                paymentId: payment.paymentId,
                amount: (cents / 100).toFixed(2),
                reason: 'Goodwill',
                refundDate: today,
                providerRefundId: null,
              };
              decide(invoice.invoiceId, { type: 'RefundPayment', invoiceId: invoice.invoiceId, refund });
              if (invoice.fields.status === 'paid') lateSince.set(invoice.invoiceId, [invoice.fields.dueDate, today].sort()[1]!);
            }
          }
          if (!happening.runs) return;
          const pastDueNow = scheduleInvoices([...invoices.values()], today);
          for (const invoice of pastDueNow) expect(invoice.lateFrom).toBe(lateSince.get(invoice.invoiceId));
          for (const event of decideDelinquencyDay(renter, { customerId, today, schedule, invoices: pastDueNow, clearAt })) {
            if (event.type === 'delinquency_step_taken') {
              const episode = episodeSteps(renter);
              const index = schedule.findIndex((s) => s.kind === event.data.kind);
              // Every earlier step of the schedule taken in this episode, this one not yet.
              expect(schedule.slice(0, index).every((s) => episode.some((t) => t.kind === s.kind))).toBe(true);
              expect(episode.some((t) => t.kind === event.data.kind)).toBe(false);
              // Its days after the step before it, so never on the same day as it.
              const before = schedule[index - 1];
              if (before) {
                const beforeTaken = episode.find((t) => t.kind === before.kind)!;
                expect(event.data.date >= addDays(beforeTaken.date, event.data.day - before.day)).toBe(true);
                expect(event.data.date > beforeTaken.date).toBe(true);
              }
              // Its days after the day its invoice is late from (never counted from days the renter did not owe it).
              expect(event.data.date >= addDays(lateSince.get(event.data.invoiceId)!, event.data.day)).toBe(true);
              expect(toCents(event.data.pastDue) > toCents(schedule[index]!.threshold)).toBe(true);
            }
            renter = evolveDelinquency(renter, event);
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});
