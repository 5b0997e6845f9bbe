import { clearingThreshold } from '@storage/contracts/delinquency';
import { streams } from '@storage/contracts/events';
import { comparePositions, type EventStore, type Position, readStreams } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { aggregateFrom, type CommandContext } from '../commands/handle.ts';
import { invoiceAggregate, openBalance } from '../invoices/invoice.ts';
import { decideDelinquencyDay, type PastDueInvoice } from './businessLogic.ts';
import { decideOnDelinquency } from './commands.ts';
import { delinquencyStepsFor } from './settings.ts';

// The delinquency day of a facility (run by the billing day, after the late rules): each renter
// with open invoices past due takes the schedule's steps whose day has come, and renters with steps
// whose past-due balance fell without a reaction seeing it are cleared. The read model only
// nominates renters and invoices; the invoices' streams give the amounts and the renter's
// delinquency stream decides, at its revision, so a rerun (or two at once) adds nothing.

export interface DelinquencyDayResult {
  stepsTaken: number;
  cleared: number;
  position: Position | null;
}

const Nominee = z.object({ customer_id: z.string(), invoice_ids: z.array(z.string()) });

/** Renters with open invoices due before `today` (and those invoices), and renters with steps since their last clear. */
async function nominees(pool: DatabasePool, facilityId: string | null, today: string) {
  return pool.any(sql.type(Nominee)`
    SELECT customer_id::text, coalesce(array_agg(invoice_id::text ORDER BY invoice_id) FILTER (WHERE invoice_id IS NOT NULL), '{}') AS invoice_ids
    FROM (
      SELECT i.customer_id, i.id AS invoice_id FROM invoices i
      WHERE i.facility_id IS NOT DISTINCT FROM ${facilityId}::uuid AND i.status IN ('sent', 'overdue') AND i.due_date < ${today}::date
      UNION ALL
      SELECT d.customer_id, NULL FROM customer_delinquency d
      WHERE d.facility_id IS NOT DISTINCT FROM ${facilityId}::uuid AND d.steps_since_clear > 0
    ) n
    GROUP BY customer_id ORDER BY customer_id`);
}

/** The renter's invoices that are open and past due as their own streams say (the read model may lag). */
async function pastDueInvoices(store: EventStore, invoiceIds: readonly string[], today: string): Promise<PastDueInvoice[]> {
  if (invoiceIds.length === 0) return [];
  const read = await readStreams(store, invoiceIds.map(streams.invoice));
  const invoices: PastDueInvoice[] = [];
  for (const invoiceId of invoiceIds) {
    const { state } = aggregateFrom(read.get(streams.invoice(invoiceId)) ?? [], invoiceAggregate);
    if (state.status !== 'current') continue;
    const { status, dueDate } = state.fields;
    if ((status === 'sent' || status === 'overdue') && dueDate < today) invoices.push({ invoiceId, dueDate, open: openBalance(state) });
  }
  return invoices;
}

/** Runs `work` on every item, at most `concurrency` at once (1: in order). */
async function eachAtMost<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

export async function runDelinquencyDay(
  deps: { store: EventStore; pool: DatabasePool },
  ctx: CommandContext,
  facilityId: string | null,
  today: string,
  concurrency = 8,
): Promise<DelinquencyDayResult> {
  const result: DelinquencyDayResult = { stepsTaken: 0, cleared: 0, position: null };
  const renters = await nominees(deps.pool, facilityId, today);
  if (renters.length === 0) return result;
  const schedule = await delinquencyStepsFor(deps.store, facilityId);
  const clearAt = clearingThreshold(schedule);
  await eachAtMost(renters, concurrency, async ({ customer_id: customerId, invoice_ids: invoiceIds }) => {
    const decided = await decideOnDelinquency(
      ctx,
      customerId,
      async (state) => {
        // Renters with nothing past due and nothing to clear decide nothing (most of them).
        if (invoiceIds.length === 0 && state.sinceClear === 0) return [];
        const invoices = await pastDueInvoices(deps.store, invoiceIds, today);
        return decideDelinquencyDay(state, { customerId, today, schedule, invoices, clearAt });
      },
      null,
    );
    if (!decided) return;
    for (const event of decided.events) {
      if (event.type === 'delinquency_step_taken') result.stepsTaken++;
      if (event.type === 'delinquency_cleared') result.cleared++;
    }
    if (!result.position || comparePositions(decided.position, result.position) > 0) result.position = decided.position;
  });
  return result;
}
