import { randomUUID } from 'node:crypto';
import type { UnitStatus } from '@storage/contracts/enums';
import { streams } from '@storage/contracts/events';
import { NO_UNIT_FEATURES, type UnitFeatures } from '@storage/contracts/unit-features';
import { NotFoundError } from '../commands/errors.ts';
import { type CommandContext, handleCommand, type LoadedAggregate, loadAggregate } from '../commands/handle.ts';
import { type UniqueKey, withUniqueKey } from '../commands/unique-keys.ts';
import { facilityAggregate } from '../facilities/facility.ts';
import { reservationAggregate, reservationCustomerId } from '../reservations/reservation.ts';
import { decideUnit, type HeldReservation, type UnitCommand } from './businessLogic.ts';
import { type UnitFields, type UnitState, unitAggregate } from './unit.ts';

function decide(ctx: CommandContext, command: UnitCommand, known?: LoadedAggregate<UnitState>) {
  return handleCommand(ctx, streams.unit(command.unitId), unitAggregate, (state) => decideUnit(command, state), known);
}

/** A new unit's fields; one added without its features offers none until staff set them. */
export type NewUnitFields = Omit<UnitFields, 'features'> & { features?: UnitFeatures };

export async function addUnit(ctx: CommandContext, newFields: NewUnitFields, unitId: string = randomUUID()) {
  const fields: UnitFields = { ...newFields, features: newFields.features ?? NO_UNIT_FEATURES };
  if (fields.facilityId !== null) {
    const { state: facility } = await loadAggregate(ctx.store, streams.facility(fields.facilityId), facilityAggregate);
    if (facility.status === 'none') throw new NotFoundError('Facility not found');
  }
  const key: UniqueKey = {
    kind: 'unit-number',
    value: fields.unitNumber,
    ownerStream: streams.unit(unitId),
    field: 'unitNumber',
    takenMessage: `A unit numbered ${fields.unitNumber} already exists`,
  };
  return withUniqueKey(ctx, key, () => decide(ctx, { type: 'AddUnit', unitId, fields }));
}

export async function changeUnitStatus(ctx: CommandContext, unitId: string, status: UnitStatus, reason: string | null = null) {
  return decide(ctx, { type: 'ChangeUnitStatus', unitId, status, reason });
}

/** Sets everything the unit offers a renter (climate control, drive-up, floor, lock type). */
export async function setUnitFeatures(ctx: CommandContext, unitId: string, features: UnitFeatures) {
  return decide(ctx, { type: 'SetUnitFeatures', unitId, features });
}

/** Holds an available unit for a reservation, so that only the reservation's customer can lease it. */
export async function reserveUnit(ctx: CommandContext, unitId: string, reservationId: string) {
  return decide(ctx, { type: 'ReserveUnit', unitId, reservationId });
}

/** Offers the unit again when its reservation is cancelled or expires; harmless once the unit is leased or held for another. */
export async function releaseUnit(ctx: CommandContext, unitId: string, reservationId: string, reason: string) {
  return decide(ctx, { type: 'ReleaseUnit', unitId, reservationId, reason });
}

async function heldReservation(ctx: CommandContext, reservationId: string): Promise<HeldReservation | null> {
  const { state } = await loadAggregate(ctx.store, streams.reservation(reservationId), reservationAggregate);
  const customerId = reservationCustomerId(state);
  return customerId === null ? null : { reservationId, customerId };
}

/** Takes the unit for a lease; of racing leases for one unit, the unit stream's revision lets one win. */
export async function occupyUnit(
  ctx: CommandContext,
  unitId: string,
  lease: { leaseId: string; customerId: string },
  /** The unit's stream as the caller read it a moment ago: decided on first (a lost race reads it afresh). */
  known?: LoadedAggregate<UnitState>,
) {
  const loaded = known ?? (await loadAggregate(ctx.store, streams.unit(unitId), unitAggregate));
  const reservationId = loaded.state.status === 'current' ? loaded.state.reservationId : null;
  const reservation = reservationId ? await heldReservation(ctx, reservationId) : null;
  return decide(ctx, { type: 'OccupyUnit', unitId, ...lease, reservation }, loaded);
}

/** Gives the unit back when `leaseId` took it but never started: to the reservation it was held for, or to anyone. */
export async function returnUnit(ctx: CommandContext, unitId: string, leaseId: string, heldFor: string | null, reason: string) {
  return decide(ctx, { type: 'ReturnUnit', unitId, leaseId, heldFor, reason });
}

/** Lets the unit go when `leaseId` ends; safe to repeat, and harmless once another lease holds the unit. */
export async function vacateUnit(ctx: CommandContext, unitId: string, leaseId: string) {
  return decide(ctx, { type: 'VacateUnit', unitId, leaseId });
}
