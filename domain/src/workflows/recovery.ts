import { streams } from '@storage/contracts/events';
import type { Position } from '@storage/eventstore/port';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { type CommandContext, loadAggregate, toDomainEvent } from '../commands/handle.ts';
import { abandonLeaseStart } from '../leases/commands.ts';
import { leaseAggregate } from '../leases/lease.ts';
import { abandonSubmission, finishConversion } from '../reservations/commands.ts';
import { reservationAggregate } from '../reservations/reservation.ts';
import { releaseUnit, returnUnit } from '../units/commands.ts';
import { evolveUnit, initialUnitState } from '../units/unit.ts';

// The recovery process of the workflows across aggregates (online reservation, move-in, lease
// start): what a request that stopped half-way left is finished or undone here. The read model
// nominates (projector/src/jobs/workflow-recovery.ts); the streams decide, and every step is the
// same repeatable step the request runs, so a second run, a second replica or a request that
// comes back late changes nothing more. Only what has not moved since `settledBefore` (the grace
// period) is touched, so a workflow still in flight is never undone.

export interface Recovered {
  /** What was done, for the log and the tests; empty when there was nothing to do. */
  action: 'none' | 'conversion-finished' | 'conversion-abandoned' | 'lease-start-abandoned' | 'unit-returned' | 'submission-abandoned' | 'unit-released';
  position: Position | null;
}

const nothing: Recovered = { action: 'none', position: null };

async function settledSince(ctx: CommandContext, stream: string, settledBefore: Date): Promise<boolean> {
  const last = (await ctx.store.readStream(stream)).at(-1);
  return last !== undefined && Date.parse(last.recordedAt) <= settledBefore.getTime();
}

/** A move-in the reservation decided but whose lease steps stopped: finished forward, or undone when the lease is refused. */
export async function recoverConversion(ctx: CommandContext, reservationId: string, settledBefore: Date): Promise<Recovered> {
  const stream = streams.reservation(reservationId);
  if (!(await settledSince(ctx, stream, settledBefore))) return nothing;
  const { state } = await loadAggregate(ctx.store, stream, reservationAggregate);
  if (state.status !== 'converting') return nothing;
  try {
    const finished = await finishConversion(ctx, reservationId, state.conversion);
    return { action: 'conversion-finished', position: finished.position };
  } catch (error) {
    // finishConversion gave the unit back and reopened the reservation.
    if (error instanceof ConflictError || error instanceof DomainRuleError || error instanceof NotFoundError) {
      return { action: 'conversion-abandoned', position: null };
    }
    throw error;
  }
}

/**
 * A unit held or occupied by a workflow that never finished: occupied by a lease that never
 * started, or held for a reservation that was never submitted (or was cancelled or expired
 * without letting the unit go).
 */
export async function recoverUnit(ctx: CommandContext, unitId: string, settledBefore: Date): Promise<Recovered> {
  const recorded = await ctx.store.readStream(streams.unit(unitId));
  const last = recorded.at(-1);
  if (!last || Date.parse(last.recordedAt) > settledBefore.getTime()) return nothing;
  const unit = recorded.map(toDomainEvent).reduce(evolveUnit, initialUnitState);
  if (unit.status !== 'current') return nothing;

  if (unit.fields.status === 'occupied' && unit.leaseId !== null) {
    const leaseId = unit.leaseId;
    const { state: lease } = await loadAggregate(ctx.store, streams.lease(leaseId), leaseAggregate);
    if (lease.status === 'active' || lease.status === 'ended') return nothing;
    // A move-in's lease has its reservation's id.
    const { state: reservation } = await loadAggregate(ctx.store, streams.reservation(leaseId), reservationAggregate);
    if (reservation.status === 'converting' && reservation.conversion.leaseId === leaseId) return recoverConversion(ctx, leaseId, settledBefore);
    if (reservation.status === 'submitted' && reservation.details.unitId === unitId) {
      // The move-in was given up but the unit not yet given back to the reservation.
      const returned = await returnUnit(ctx, unitId, leaseId, leaseId, 'Move-in abandoned');
      return { action: 'unit-returned', position: returned.position };
    }
    const abandoned = await abandonLeaseStart(ctx, leaseId, unitId);
    return { action: abandoned.position ? 'lease-start-abandoned' : 'none', position: abandoned.position };
  }

  if (unit.fields.status === 'reserved' && unit.reservationId !== null) {
    const reservationId = unit.reservationId;
    const { state: reservation } = await loadAggregate(ctx.store, streams.reservation(reservationId), reservationAggregate);
    if (reservation.status === 'none') {
      const abandoned = await abandonSubmission(ctx, reservationId, unitId);
      return { action: abandoned.position ? 'submission-abandoned' : 'none', position: abandoned.position };
    }
    if (reservation.status === 'abandoned' || reservation.status === 'cancelled' || reservation.status === 'expired') {
      const released = await releaseUnit(ctx, unitId, reservationId, `Reservation ${reservation.status}`);
      return { action: released.position ? 'unit-released' : 'none', position: released.position };
    }
  }
  return nothing;
}
