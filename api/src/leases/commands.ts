import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { handleCommand, loadAggregate, type CommandContext } from '../commands/handle.ts';
import { requireCurrentCustomer } from '../customers/commands.ts';
import { occupyUnit, vacateUnit } from '../units/commands.ts';
import { decideLease, type StartLease } from './businessLogic.ts';
import { leaseAggregate, type LeaseTerms } from './lease.ts';

export async function startLease(ctx: CommandContext, terms: LeaseTerms, leaseId: string = randomUUID()) {
  const stream = streams.lease(leaseId);
  const command: StartLease = { type: 'StartLease', leaseId, terms };
  await requireCurrentCustomer(ctx, terms.customerId);
  // Refused here, a bad lease never touches the unit.
  decideLease(command, (await loadAggregate(ctx.store, stream, leaseAggregate)).state);
  // The unit stream's revision decides which of racing leases gets the unit, so the unit is taken first.
  await occupyUnit(ctx, terms.unitId);
  try {
    return await handleCommand(ctx, stream, leaseAggregate, (state) => decideLease(command, state));
  } catch (error) {
    await vacateUnit(ctx, terms.unitId);
    throw error;
  }
}

export async function endLease(ctx: CommandContext, leaseId: string, endDate: string) {
  const result = await handleCommand(ctx, streams.lease(leaseId), leaseAggregate, (state) =>
    decideLease({ type: 'EndLease', leaseId, endDate }, state),
  );
  for (const event of result.events) if (event.type === 'lease_ended') await vacateUnit(ctx, event.data.unitId);
  return result;
}
