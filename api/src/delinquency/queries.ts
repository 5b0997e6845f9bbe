import { DEFAULT_TIME_ZONE } from '@storage/contracts/billing';
import type { DelinquencyStep, DelinquencyTimeline, DelinquencyTimelineEntry } from '@storage/contracts/delinquency';
import { delinquencyStepLabels } from '@storage/contracts/enums';
import { streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import { renterInvoices } from '@storage/domain/accounts/receivables';
import { addDays, todayIn } from '@storage/domain/billing/calendar';
import { toDomainEvent } from '@storage/domain/commands/handle';
import { nextDelinquencyStep, pastDueBalance } from '@storage/domain/delinquency/businessLogic';
import { delinquencyAggregate, pausedOn } from '@storage/domain/delinquency/delinquency';
import { scheduleInvoices } from '@storage/domain/delinquency/run';
import type { EventStore } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { getDelinquencySettings } from '../settings/queries.ts';

const CustomerZone = z.object({ facility_id: z.string().nullable(), time_zone: z.string().nullable() });
const InvoiceNumber = z.object({ id: z.string(), invoice_number: z.string() });

const later = (a: string, b: string) => (a > b ? a : b);

/**
 * A renter's delinquency: the steps and other events of their stream, their past-due balance and
 * the next step of the schedule that applies to their facility, with when and what stops it, as
 * the schedule decides them (the invoices' own streams, nextDelinquencyStep). Null: no such customer.
 */
export async function getDelinquencyTimeline(pool: DatabasePool, store: EventStore, customerId: string, now: Date): Promise<DelinquencyTimeline | null> {
  const customer = await pool.maybeOne(sql.type(CustomerZone)`
    SELECT c.facility_id::text, f.time_zone FROM customers c LEFT JOIN facilities f ON f.id = c.facility_id WHERE c.id = ${customerId}::uuid`);
  if (!customer) return null;
  const zone = customer.time_zone ?? DEFAULT_TIME_ZONE;
  const recorded = await store.readStream(streams.delinquency(customerId));
  let state = delinquencyAggregate.initial;
  const history = recorded.map((e) => {
    const event = toDomainEvent(e);
    state = delinquencyAggregate.evolve(state, event);
    return { id: e.id, event, recordedAt: e.metadata.occurredAt };
  });
  // Never before the last step: a demo runs billing days ahead of the clock (billing:run --date).
  const lastStepDate = state.steps.at(-1)?.date;
  const today = lastStepDate ? later(todayIn(zone, now), lastStepDate) : todayIn(zone, now);

  const invoices = await renterInvoices({ store }, customerId);
  const pastDueInvoices = scheduleInvoices(invoices, today);
  const pastDue = pastDueBalance(pastDueInvoices);
  const numbers = new Map(invoices.map((i) => [i.invoiceId, i.fields.invoiceNumber]));

  const stepInvoiceIds = [...new Set(state.steps.map((s) => s.invoiceId))].filter((id) => !numbers.has(id));
  if (stepInvoiceIds.length > 0) {
    const rows = await pool.any(sql.type(InvoiceNumber)`SELECT id::text, invoice_number FROM invoices WHERE id = ANY(${sql.array(stepInvoiceIds, 'uuid')})`);
    for (const r of rows) numbers.set(r.id, r.invoice_number);
  }

  const blank = { kind: null, day: null, invoiceId: null, invoiceNumber: null, pastDue: null, reason: null, until: null };
  const events: DelinquencyTimelineEntry[] = history.map(({ id, event, recordedAt }) => {
    const on = todayIn(zone, new Date(recordedAt));
    switch (event.type) {
      case 'delinquency_step_taken': {
        const d = event.data;
        return {
          ...blank,
          id,
          type: 'step_taken',
          date: d.date,
          kind: d.kind,
          label: delinquencyStepLabels[d.kind],
          day: d.day,
          invoiceId: d.invoiceId,
          invoiceNumber: numbers.get(d.invoiceId) ?? null,
          pastDue: d.pastDue,
          recordedAt,
        };
      }
      case 'delinquency_cleared':
        return { ...blank, id, type: 'cleared', date: event.data.date, label: 'Cleared', pastDue: event.data.pastDue, reason: event.data.reason, recordedAt };
      case 'delinquency_paused':
        return { ...blank, id, type: 'paused', date: on, label: 'Paused', reason: event.data.reason, until: event.data.until, recordedAt };
      case 'delinquency_resumed':
        return { ...blank, id, type: 'resumed', date: on, label: 'Resumed', reason: event.data.reason, recordedAt };
      default:
        throw new Error(`Unexpected ${event.type} on ${streams.delinquency(customerId)}`);
    }
  });

  const schedule: DelinquencyStep[] = (await getDelinquencySettings(pool, customer.facility_id)).effective;
  const paused = pausedOn(state, today);
  // The step the schedule takes next; none is coming while the balance is at or below its threshold (it holds the ones after it).
  const next = nextDelinquencyStep(state, schedule, pastDueInvoices);
  let nextStep: DelinquencyTimeline['nextStep'] = null;
  if (next && toCents(pastDue) > toCents(next.step.threshold)) {
    const { step, invoice } = next;
    let date = later(next.on, today);
    if (paused && state.pause) date = later(date, addDays(state.pause.until, 1));
    nextStep = {
      kind: step.kind,
      label: delinquencyStepLabels[step.kind],
      date,
      invoiceId: invoice.invoiceId,
      invoiceNumber: numbers.get(invoice.invoiceId) ?? '',
      threshold: step.threshold,
      amountToStop: fromCents(toCents(pastDue) - toCents(step.threshold)),
    };
  }
  return {
    customerId,
    status: paused ? 'paused' : state.sinceClear > 0 ? 'delinquent' : 'current',
    today,
    pastDue,
    steps: events.filter((e) => e.type === 'step_taken'),
    events,
    nextStep,
    pause: paused && state.pause ? { ...state.pause } : null,
    schedule,
  };
}
