import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { readStreams } from '@storage/eventstore/port';
import { todayIn } from '../billing/calendar.ts';
import { billLease } from '../billing/lease-billing.ts';
import { NO_RENTAL_EXTRAS, type RentalChoices, type RentalExtras, rentalExtras } from '../billing/offers.ts';
import { type FacilityTerms, facilityBilling } from '../billing/settings.ts';
import { aggregateFrom, type CommandContext, handleCommand, type LoadedAggregate, loadAggregate, stepWritten } from '../commands/handle.ts';
import { currentCustomer, listCustomerLease } from '../customers/commands.ts';
import { customerAggregate } from '../customers/customer.ts';
import { occupyUnit, returnUnit, vacateUnit } from '../units/commands.ts';
import { unitAggregate } from '../units/unit.ts';
import { decideLease, type StartLease } from './businessLogic.ts';
import { type LeaseState, type LeaseTerms, leaseAggregate } from './lease.ts';

/**
 * Starts a lease: the unit is taken first (its stream's revision decides which of racing leases
 * gets it), then the lease starts. A refused start gives the unit back at once; a start that
 * stopped in between (a crash) is given up by the recovery process (`abandonLeaseStart`).
 * `heldFor`: the reservation the unit is held for, which gets it back if the lease does not start.
 * `choices`: the protection plan and promotion asked for, checked against what the unit's facility
 * offers where the move-in happens (`channel`).
 */
export async function startLease(
  ctx: CommandContext,
  agreed: Omit<LeaseTerms, 'facilityId'>,
  leaseId: string = randomUUID(),
  heldFor: string | null = null,
  options: { bill?: boolean; choices?: RentalChoices; channel?: 'desk' | 'online' } = {},
) {
  const stream = streams.lease(leaseId);
  // The unit, the customer and the lease, read in one statement; each is decided on as read (a
  // stream written meanwhile refuses the append, and is read again).
  const unitStream = streams.unit(agreed.unitId);
  const customerStream = streams.customer(agreed.customerId);
  const read = await readStreams(ctx.store, [unitStream, customerStream, stream]);
  const unit = aggregateFrom(read.get(unitStream) ?? [], unitAggregate);
  // A unit stays in the facility it was added to, so the lease records that facility.
  const terms: LeaseTerms = { ...agreed, facilityId: unit.state.status === 'current' ? unit.state.fields.facilityId : null };
  const choices = options.choices ?? { protectionPlanId: null, promotionId: null };
  // The facility's terms are read once: for the plan and promotion now, for the move-in invoice after.
  let offers: FacilityTerms | null = null;
  let extras: RentalExtras = NO_RENTAL_EXTRAS;
  if ((choices.protectionPlanId !== null || choices.promotionId !== null) && unit.state.status === 'current') {
    offers = await facilityBilling(ctx.store, terms.facilityId);
    const at = { channel: options.channel ?? 'desk', facilityId: terms.facilityId, unitSize: unit.state.fields.size, moveInDate: terms.startDate };
    extras = rentalExtras(offers, choices, at);
  }
  const command: StartLease = { type: 'StartLease', leaseId, terms, extras };
  const customer = currentCustomer(aggregateFrom(read.get(customerStream) ?? [], customerAggregate));
  const lease = aggregateFrom(read.get(stream) ?? [], leaseAggregate);
  // Refused here, a bad lease never touches the unit.
  decideLease(command, lease.state);
  // The unit stream's revision decides which of racing leases gets the unit, so the unit is taken first.
  await occupyUnit(ctx, terms.unitId, { leaseId, customerId: terms.customerId }, unit);
  await stepWritten(ctx, 'lease:unit-occupied');
  try {
    // Named on the customer's stream before it starts, so that an archive decided meanwhile either
    // comes first (and this move-in is refused) or finds the lease.
    await listCustomerLease(ctx, terms.customerId, leaseId, terms.unitId, customer);
    const started = await handleCommand(ctx, stream, leaseAggregate, (state) => decideLease(command, state), lease);
    await stepWritten(ctx, 'lease:started');
    if (options.bill === false) return started;
    // The move-in invoice (and any rent already due on a backdated lease); should this stop half-way,
    // the billing run finishes it.
    const billed = await billLeaseNow(ctx, leaseId, offers ?? (await facilityBilling(ctx.store, terms.facilityId)), started);
    return { ...started, position: billed.position ?? started.position };
  } catch (error) {
    // Give the unit back unless the lease was started after all (by a racing repeat of this move-in).
    const { state } = await loadAggregate(ctx.store, stream, leaseAggregate);
    if (state.status === 'none' || state.status === 'abandoned') await returnUnit(ctx, terms.unitId, leaseId, heldFor, 'Lease not started');
    throw error;
  }
}

/** Bills the lease as it just started (`lease`: its stream as the start left it, not read again). */
async function billLeaseNow(ctx: CommandContext, leaseId: string, { timeZone, settings }: FacilityTerms, lease: LoadedAggregate<LeaseState>) {
  return billLease(ctx, leaseId, todayIn(timeZone, ctx.now), settings, { lease });
}

/**
 * For the recovery process: a lease that took its unit but never started is given up on its own
 * stream first (so a late start is refused), then the unit is offered again. A lease that did
 * start meanwhile stands, and nothing changes.
 */
export async function abandonLeaseStart(ctx: CommandContext, leaseId: string, unitId: string) {
  const abandoned = await handleCommand(ctx, streams.lease(leaseId), leaseAggregate, (state) =>
    decideLease({ type: 'AbandonLeaseStart', leaseId, unitId, reason: 'The move-in stopped before the lease started' }, state),
  );
  if (abandoned.state.status !== 'abandoned') return abandoned;
  const returned = await returnUnit(ctx, unitId, leaseId, null, 'Lease never started');
  return { ...abandoned, position: returned.position ?? abandoned.position };
}

/** Ends the lease and frees its unit; repeating it with the same end date finishes what a failed attempt left undone. */
export async function endLease(ctx: CommandContext, leaseId: string, endDate: string) {
  const result = await handleCommand(ctx, streams.lease(leaseId), leaseAggregate, (state) => decideLease({ type: 'EndLease', leaseId, endDate }, state));
  if (result.state.status !== 'ended') return result;
  const vacated = await vacateUnit(ctx, result.state.terms.unitId, leaseId);
  return { ...result, position: vacated.position ?? result.position };
}
