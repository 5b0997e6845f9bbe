import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import { addMonths, todayIn } from '../billing/calendar.ts';
import { billingSettingsFor, facilityTimeZone } from '../billing/settings.ts';
import { derivedId } from '../commands/derived-id.ts';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { type CommandContext, type CommandResult, handleCommand, loadAggregate } from '../commands/handle.ts';
import { decideLease } from './businessLogic.ts';
import { type LeaseState, leaseAggregate } from './lease.ts';

// Rent changes: a new monthly rate for a lease from an effective date, noticed today (the
// facility's date) and no sooner than the billing settings' notice days after it. The billing run
// bills each period that starts on or after the effective date at the new rate.

/** Today in the lease's facility and the notice its settings ask for. */
export async function rentChangeCalendar(ctx: CommandContext, facilityId: string | null): Promise<{ today: string; noticeDays: number }> {
  const [timeZone, settings] = await Promise.all([facilityTimeZone(ctx.store, facilityId), billingSettingsFor(ctx.store, facilityId)]);
  return { today: todayIn(timeZone, ctx.now), noticeDays: settings.rentChangeNoticeDays };
}

export interface RentChangeRequest {
  newRate: string;
  effectiveDate: string;
  reason: string | null;
}

/**
 * Schedules a rent change on the lease. `changeId` names it: a repeat with the same id (a retry,
 * a bulk request again) records nothing.
 */
export async function scheduleRentChange(
  ctx: CommandContext,
  leaseId: string,
  request: RentChangeRequest,
  changeId: string = randomUUID(),
): Promise<CommandResult<LeaseState> & { changeId: string }> {
  const loaded = await loadAggregate(ctx.store, streams.lease(leaseId), leaseAggregate);
  if (loaded.state.status === 'none' || loaded.state.status === 'abandoned') throw new NotFoundError('Lease not found');
  const { today, noticeDays } = await rentChangeCalendar(ctx, loaded.state.terms.facilityId);
  const command = { type: 'ScheduleRentChange' as const, leaseId, changeId, ...request, today, noticeDays };
  const result = await handleCommand(ctx, streams.lease(leaseId), leaseAggregate, (state) => decideLease(command, state), loaded);
  return { ...result, changeId };
}

/** Cancels a scheduled change that has not taken effect; cancelling it again records nothing. */
export async function cancelRentChange(ctx: CommandContext, leaseId: string, changeId: string, reason: string) {
  const loaded = await loadAggregate(ctx.store, streams.lease(leaseId), leaseAggregate);
  if (loaded.state.status === 'none' || loaded.state.status === 'abandoned') throw new NotFoundError('Lease not found');
  const { today } = await rentChangeCalendar(ctx, loaded.state.terms.facilityId);
  return handleCommand(
    ctx,
    streams.lease(leaseId),
    leaseAggregate,
    (state) => decideLease({ type: 'CancelRentChange', leaseId, changeId, reason, today }, state),
    loaded,
  );
}

/** Whole months from `from` to `to` (0 when `to` is before a month has passed). */
export function wholeMonthsBetween(from: string, to: string): number {
  if (to < from) return 0;
  let months = Math.max(0, (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7)) - 1);
  while (addMonths(from, months + 1) <= to) months++;
  return months;
}

/** How a bulk change moves each rate: by a percentage (up to 2 decimals) or an amount, rounded half up to the cent. */
export type RateAdjustment = { kind: 'percent'; value: string } | { kind: 'amount'; value: string };

export function adjustedRate(rate: string, adjustment: RateAdjustment): string {
  const cents = toCents(rate);
  if (adjustment.kind === 'amount') return fromCents(cents + toCents(adjustment.value));
  // The percentage in basis points (4.5% = 450), exact; half up to the cent.
  const basisPoints = toCents(adjustment.value);
  const change = cents * basisPoints;
  const rounded = change >= 0n ? (change * 2n + 10_000n) / 20_000n : -((-change * 2n + 10_000n) / 20_000n);
  return fromCents(cents + rounded);
}

/** The change id of a bulk request's change to one lease: the same on every retry of the request. */
export function bulkRentChangeId(requestKey: string, leaseId: string): string {
  return derivedId('bulk-rent-change', requestKey, leaseId);
}

/** One lease of a bulk change, as planned from the read model. */
export interface PlannedRentChange {
  leaseId: string;
  newRate: string;
}

export interface BulkOutcome {
  leaseId: string;
  changeId: string;
  /** Null: scheduled (now or by an earlier attempt); else why it was not. */
  skipped: string | null;
}

/**
 * Schedules each planned change, its id derived from the request's key and the lease, so a retry
 * of the request (after a crash half-way) schedules each lease once. A lease refused on its own
 * (ended meanwhile, a change pending since the plan) is skipped, with the reason.
 */
export async function scheduleBulkRentChanges(
  ctx: CommandContext,
  requestKey: string,
  planned: readonly PlannedRentChange[],
  effectiveDate: string,
  reason: string | null,
): Promise<{ outcomes: BulkOutcome[]; position: CommandResult<LeaseState>['position'] }> {
  const outcomes: BulkOutcome[] = [];
  let position: CommandResult<LeaseState>['position'] = null;
  for (const { leaseId, newRate } of planned) {
    const changeId = bulkRentChangeId(requestKey, leaseId);
    try {
      const result = await scheduleRentChange(ctx, leaseId, { newRate, effectiveDate, reason }, changeId);
      position = result.position ?? position;
      outcomes.push({ leaseId, changeId, skipped: null });
    } catch (error) {
      if (!(error instanceof ConflictError || error instanceof DomainRuleError || error instanceof NotFoundError)) throw error;
      outcomes.push({ leaseId, changeId, skipped: error.message });
    }
  }
  return { outcomes, position };
}
