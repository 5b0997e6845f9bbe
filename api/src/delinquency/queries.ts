import { DEFAULT_TIME_ZONE } from '@storage/contracts/billing';
import type { DelinquencyStep, DelinquencyTimeline, DelinquencyTimelineEntry } from '@storage/contracts/delinquency';
import { delinquencyStepLabels } from '@storage/contracts/enums';
import { streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import { addDays, todayIn } from '@storage/domain/billing/calendar';
import { toDomainEvent } from '@storage/domain/commands/handle';
import { drivingInvoice } from '@storage/domain/delinquency/businessLogic';
import { delinquencyAggregate, pausedOn, stepTaken } from '@storage/domain/delinquency/delinquency';
import type { EventStore } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { getDelinquencySettings } from '../settings/queries.ts';

const CustomerZone = z.object({ facility_id: z.string().nullable(), time_zone: z.string().nullable() });
const OpenInvoice = z.object({ id: z.string(), invoice_number: z.string(), due_date: z.string(), open: z.string(), past_due: z.boolean() });
const InvoiceNumber = z.object({ id: z.string(), invoice_number: z.string() });

const later = (a: string, b: string) => (a > b ? a : b);

/**
 * A renter's delinquency: the steps and other events of their stream, their past-due balance (read
 * model), the next step of the schedule that applies to their facility and what stops it. Null: no such customer.
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

  const open = await pool.any(sql.type(OpenInvoice)`
    SELECT id::text, invoice_number, due_date::text, (amount - amount_paid)::numeric(20, 2)::text AS open, due_date < ${today}::date AS past_due
    FROM invoices WHERE customer_id = ${customerId}::uuid AND status IN ('sent', 'overdue') AND amount > amount_paid
    ORDER BY due_date, id`);
  const pastDueInvoices = open.filter((i) => i.past_due).map((i) => ({ invoiceId: i.id, dueDate: i.due_date, open: i.open, number: i.invoice_number }));
  const pastDue = fromCents(pastDueInvoices.reduce((sum, i) => sum + toCents(i.open), 0n));

  const stepInvoiceIds = [...new Set(state.steps.map((s) => s.invoiceId))];
  const numbers = new Map(
    stepInvoiceIds.length === 0
      ? []
      : (await pool.any(sql.type(InvoiceNumber)`SELECT id::text, invoice_number FROM invoices WHERE id = ANY(${sql.array(stepInvoiceIds, 'uuid')})`)).map(
          (r) => [r.id, r.invoice_number],
        ),
  );
  for (const i of open) numbers.set(i.id, i.invoice_number);

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
  const driving = drivingInvoice(pastDueInvoices);
  let nextStep: DelinquencyTimeline['nextStep'] = null;
  if (driving) {
    const step = schedule.find((s) => !stepTaken(state, driving.invoiceId, s.kind) && toCents(pastDue) > toCents(s.threshold));
    if (step) {
      let date = later(addDays(driving.dueDate, step.day), today);
      if (paused && state.pause) date = later(date, addDays(state.pause.until, 1));
      nextStep = {
        kind: step.kind,
        label: delinquencyStepLabels[step.kind],
        date,
        invoiceId: driving.invoiceId,
        invoiceNumber: driving.number,
        threshold: step.threshold,
        amountToStop: fromCents(toCents(pastDue) - toCents(step.threshold)),
      };
    }
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
