import { clearingThreshold } from '@storage/contracts/delinquency';
import { comparePositions, type EventStore, type Position } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { lateFrom, pastDueInvoices, renterInvoices } from '../accounts/receivables.ts';
import type { CommandContext } from '../commands/handle.ts';
import { type InvoiceState, openBalance } from '../invoices/invoice.ts';
import { decideDelinquencyDay, type PastDueInvoice } from './businessLogic.ts';
import { decideOnDelinquency } from './commands.ts';
import { delinquencyStepsFor } from './settings.ts';

// The delinquency day of a facility (run by the billing day, after the late rules): each renter
// with open invoices past due takes the schedule's next step when its day has come, and renters
// with steps whose past-due balance fell without a reaction seeing it are cleared. The read model
// only nominates renters (the billing day adds those it billed, which the read model may not show
// yet); their invoices' own streams give the amounts and the days, and the renter's delinquency
// stream decides, at its revision, so a rerun (or two at once) adds nothing.

export interface DelinquencyDayResult {
  stepsTaken: number;
  cleared: number;
  position: Position | null;
}

const Nominee = z.object({ customer_id: z.string(), past_due: z.boolean() });

/** Renters with open invoices due before `today`, and renters with steps since their last clear. */
async function nominees(pool: DatabasePool, facilityId: string | null, today: string) {
  return pool.any(sql.type(Nominee)`
    SELECT customer_id::text, bool_or(past_due) AS past_due
    FROM (
      SELECT i.customer_id, true AS past_due FROM invoices i
      WHERE i.facility_id IS NOT DISTINCT FROM ${facilityId}::uuid AND i.status IN ('sent', 'overdue') AND i.due_date < ${today}::date
      UNION ALL
      SELECT d.customer_id, false FROM customer_delinquency d
      WHERE d.facility_id IS NOT DISTINCT FROM ${facilityId}::uuid AND d.steps_since_clear > 0
    ) n
    GROUP BY customer_id ORDER BY customer_id`);
}

/** What the schedule reads of the renter's invoices: those past due on `today` (receivables' rule), each with the day it is late from. */
export function scheduleInvoices(invoices: readonly InvoiceState[], today: string): PastDueInvoice[] {
  return pastDueInvoices(invoices, today).map((invoice) => ({
    invoiceId: invoice.invoiceId,
    dueDate: invoice.fields.dueDate,
    lateFrom: lateFrom(invoice),
    open: openBalance(invoice),
  }));
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
  /** Renters the billing run billed, which the read model may not show yet. */
  billed: Iterable<string> = [],
): Promise<DelinquencyDayResult> {
  const result: DelinquencyDayResult = { stepsTaken: 0, cleared: 0, position: null };
  const pastDueOf = new Map((await nominees(deps.pool, facilityId, today)).map((n) => [n.customer_id, n.past_due]));
  for (const customerId of billed) pastDueOf.set(customerId, true);
  if (pastDueOf.size === 0) return result;
  const renters = [...pastDueOf].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const schedule = await delinquencyStepsFor(deps.store, facilityId);
  const clearAt = clearingThreshold(schedule);
  await eachAtMost(renters, concurrency, async ([customerId, nominatedPastDue]) => {
    const decided = await decideOnDelinquency(
      ctx,
      customerId,
      async (state) => {
        // Renters with nothing past due and nothing to clear decide nothing (most of them).
        if (!nominatedPastDue && state.sinceClear === 0) return [];
        const invoices = scheduleInvoices(await renterInvoices(deps, customerId), today);
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
