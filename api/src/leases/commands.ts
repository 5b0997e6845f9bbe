import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { handleCommand, loadAggregate, type CommandContext } from '../commands/handle.ts';
import { requireCurrentCustomer } from '../customers/commands.ts';
import { occupyUnit, vacateUnit } from '../units/commands.ts';
import { unitAggregate } from '../units/unit.ts';
import { decideLease, type StartLease } from './businessLogic.ts';
import { leaseAggregate, type LeaseTerms } from './lease.ts';

export async function startLease(ctx: CommandContext, agreed: Omit<LeaseTerms, 'facilityId'>, leaseId: string = randomUUID()) {
  // A unit stays in the facility it was added to, so the lease records that facility.
  const { state: unit } = await loadAggregate(ctx.store, streams.unit(agreed.unitId), unitAggregate);
  const terms: LeaseTerms = { ...agreed, facilityId: unit.status === 'current' ? unit.fields.facilityId : null };
  const stream = streams.lease(leaseId);
  const command: StartLease = { type: 'StartLease', leaseId, terms };
  await requireCurrentCustomer(ctx, terms.customerId);
  // Refused here, a bad lease never touches the unit.
  decideLease(command, (await loadAggregate(ctx.store, stream, leaseAggregate)).state);
  // The unit stream's revision decides which of racing leases gets the unit, so the unit is taken first.
  await occupyUnit(ctx, terms.unitId, { leaseId, customerId: terms.customerId });
  try {
    return await handleCommand(ctx, stream, leaseAggregate, (state) => decideLease(command, state));
  } catch (error) {
    // Let the unit go unless the lease was started after all (by a racing repeat of this move-in).
    const { state } = await loadAggregate(ctx.store, stream, leaseAggregate);
    if (state.status === 'none') await vacateUnit(ctx, terms.unitId, leaseId);
    throw error;
  }
}

/** Ends the lease and frees its unit; repeating it with the same end date finishes what a failed attempt left undone. */
export async function endLease(ctx: CommandContext, leaseId: string, endDate: string) {
  const result = await handleCommand(ctx, streams.lease(leaseId), leaseAggregate, (state) =>
    decideLease({ type: 'EndLease', leaseId, endDate }, state),
  );
  if (result.state.status !== 'ended') return result;
  const vacated = await vacateUnit(ctx, result.state.terms.unitId, leaseId);
  return { ...result, position: vacated.position ?? result.position };
}
