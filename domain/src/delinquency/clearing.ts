import { clearingThreshold } from '@storage/contracts/delinquency';
import { streams } from '@storage/contracts/events';
import type { EventStore } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { todayIn } from '../billing/calendar.ts';
import { facilityTimeZone } from '../billing/settings.ts';
import type { CommandContext } from '../commands/handle.ts';
import { loadAggregate } from '../commands/handle.ts';
import { customerAggregate } from '../customers/customer.ts';
import { decideClear } from './businessLogic.ts';
import { decideOnDelinquency } from './commands.ts';
import type { DelinquencyState } from './delinquency.ts';
import { delinquencyStepsFor } from './settings.ts';

const Sum = z.object({ past_due: z.string() });

/** The renter's past-due balance as the read model has it: the open balance of sent and overdue invoices due before `today`. */
export async function readPastDue(pool: DatabasePool, customerId: string, today: string): Promise<string> {
  return pool.oneFirst(sql.type(Sum)`
    SELECT coalesce(sum(amount - amount_paid), 0)::numeric(20, 2)::text AS past_due FROM invoices
    WHERE customer_id = ${customerId}::uuid AND status IN ('sent', 'overdue') AND due_date < ${today}::date`);
}

/**
 * The renter's date for their schedule: today in their facility's zone, never before the last step
 * taken on them (a demo advances the billing day with `billing:run --date`, ahead of the clock).
 */
export async function delinquencyToday(store: EventStore, facilityId: string | null, state: DelinquencyState, now: Date): Promise<string> {
  const today = todayIn(await facilityTimeZone(store, facilityId), now);
  const lastStep = state.steps.at(-1)?.date;
  return lastStep && lastStep > today ? lastStep : today;
}

export async function facilityOfCustomer(store: EventStore, customerId: string): Promise<string | null> {
  const { state } = await loadAggregate(store, streams.customer(customerId), customerAggregate);
  return state.status === 'none' ? null : state.fields.facilityId;
}

/**
 * After money came in (or a debt went away): clears a renter with steps since the last clear whose
 * past-due balance, read from the read model that has applied `causationId`'s event, is now at or
 * below the lockout's threshold (0.00 when the schedule has no lockout). Decided on the renter's
 * stream at its revision: a repeat of the event, or a second one, decides nothing.
 */
export async function clearIfSettled(
  deps: { store: EventStore; pool: DatabasePool },
  ctx: CommandContext,
  customerId: string,
  /** What brought the money in, in words: asked only when there is something to clear. */
  reason: () => Promise<string>,
  causationId: string,
): Promise<boolean> {
  const decided = await decideOnDelinquency(
    ctx,
    customerId,
    async (state) => {
      if (state.sinceClear === 0) return [];
      const facilityId = await facilityOfCustomer(deps.store, customerId);
      const today = await delinquencyToday(deps.store, facilityId, state, ctx.now);
      const [pastDue, schedule] = await Promise.all([readPastDue(deps.pool, customerId, today), delinquencyStepsFor(deps.store, facilityId)]);
      return decideClear(state, { customerId, date: today, pastDue, clearAt: clearingThreshold(schedule), reason: await reason() });
    },
    causationId,
  );
  return decided !== null;
}
