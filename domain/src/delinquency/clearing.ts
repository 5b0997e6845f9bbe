import { clearingThreshold } from '@storage/contracts/delinquency';
import { streams } from '@storage/contracts/events';
import type { EventStore } from '@storage/eventstore/port';
import { pastDue, renterInvoices } from '../accounts/receivables.ts';
import { todayIn } from '../billing/calendar.ts';
import { facilityTimeZone } from '../billing/settings.ts';
import type { CommandContext } from '../commands/handle.ts';
import { loadAggregate } from '../commands/handle.ts';
import { customerAggregate } from '../customers/customer.ts';
import { type ClearCheck, decideClear } from './businessLogic.ts';
import { decideOnDelinquency } from './commands.ts';
import type { DelinquencyState } from './delinquency.ts';
import { delinquencyStepsFor } from './settings.ts';

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
 * past-due balance, read from their invoices' own streams, is now at or below the lockout's
 * threshold (0.00 when the schedule has no lockout). Decided on the renter's stream at its
 * revision: a repeat of the event, or a second one, decides nothing.
 */
export async function clearIfSettled(
  deps: { store: EventStore },
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
      return decideClear(state, await clearCheck(deps.store, customerId, state, ctx.now, reason));
    },
    causationId,
  );
  return decided !== null;
}

/** What decideClear weighs for the renter today: their past-due balance, from their invoices' own streams, and the threshold that clears them. */
async function clearCheck(store: EventStore, customerId: string, state: DelinquencyState, now: Date, reason: () => Promise<string>): Promise<ClearCheck> {
  const facilityId = await facilityOfCustomer(store, customerId);
  const today = await delinquencyToday(store, facilityId, state, now);
  const [invoices, schedule] = await Promise.all([renterInvoices({ store }, customerId), delinquencyStepsFor(store, facilityId)]);
  return { customerId, date: today, pastDue: pastDue(invoices, today), clearAt: clearingThreshold(schedule), reason: await reason() };
}

/**
 * Whether the renter's schedule, as `state` has it, would clear now (what clearIfSettled would
 * decide): false for a renter with no step since the last clear.
 */
export async function wouldClear(store: EventStore, customerId: string, state: DelinquencyState, now: Date): Promise<boolean> {
  if (state.sinceClear === 0) return false;
  return decideClear(state, await clearCheck(store, customerId, state, now, async () => '')).length > 0;
}
