import type { UnitStatus } from '@storage/contracts/enums';
import type { DomainEvent } from '@storage/contracts/events';
import { toCents } from '@storage/contracts/money';
import type { UnitFeatures } from '@storage/contracts/unit-features';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import type { UnitFields, UnitState } from './unit.ts';

// A unit is occupied exactly while a lease holds it: only OccupyUnit and VacateUnit, which the
// lease commands send, move a unit into or out of "occupied", and the unit records which lease.

export type AddUnit = { type: 'AddUnit'; unitId: string; fields: UnitFields };
export type ChangeUnitStatus = { type: 'ChangeUnitStatus'; unitId: string; status: UnitStatus; reason: string | null };
export type ReserveUnit = { type: 'ReserveUnit'; unitId: string; reservationId: string };
/** The reservation the unit was held for when the command was prepared, and its customer. */
export type HeldReservation = { reservationId: string; customerId: string };
export type OccupyUnit = { type: 'OccupyUnit'; unitId: string; leaseId: string; customerId: string; reservation: HeldReservation | null };
export type VacateUnit = { type: 'VacateUnit'; unitId: string; leaseId: string };
/** The reservation ended without a lease (cancelled or expired). */
export type ReleaseUnit = { type: 'ReleaseUnit'; unitId: string; reservationId: string; reason: string };
/** A lease took the unit but never started: the unit goes back to the reservation it was held for, or is offered again. */
export type ReturnUnit = { type: 'ReturnUnit'; unitId: string; leaseId: string; heldFor: string | null; reason: string };
export type SetUnitFeatures = { type: 'SetUnitFeatures'; unitId: string; features: UnitFeatures };
export type UnitCommand = AddUnit | ChangeUnitStatus | SetUnitFeatures | ReserveUnit | OccupyUnit | VacateUnit | ReleaseUnit | ReturnUnit;

const occupiedByLeaseOnly = 'A unit becomes occupied only when a lease starts';

function existing(state: UnitState) {
  if (state.status === 'none') throw new NotFoundError('Unit not found');
  return state;
}

function statusChanged(unitId: string, status: UnitStatus, reason: string | null, holder: { leaseId?: string; reservationId?: string } = {}): DomainEvent {
  return {
    type: 'unit_status_changed',
    data: { unitId, status, reason, leaseId: holder.leaseId ?? null, reservationId: holder.reservationId ?? null },
  };
}

export function addUnit(command: AddUnit, state: UnitState): DomainEvent[] {
  if (state.status !== 'none') throw new ConflictError('This unit already exists');
  if (toCents(command.fields.monthlyRate) <= 0n) throw new DomainRuleError('The monthly rate must be more than 0.00', 'monthlyRate');
  if (command.fields.status === 'occupied') throw new DomainRuleError(occupiedByLeaseOnly, 'status');
  return [{ type: 'unit_added', data: { unitId: command.unitId, ...command.fields } }];
}

export function changeUnitStatus(command: ChangeUnitStatus, state: UnitState): DomainEvent[] {
  const unit = existing(state);
  if (command.status === 'occupied') throw new DomainRuleError(occupiedByLeaseOnly, 'status');
  if (unit.fields.status === 'occupied') throw new ConflictError(`Unit ${unit.fields.unitNumber} is leased: end its lease first`, 'status');
  if (unit.fields.status === command.status) return [];
  return [statusChanged(command.unitId, command.status, command.reason)];
}

/** Whatever its status: a leased unit's features are still what it offers. Setting what it has already records nothing. */
export function setUnitFeatures(command: SetUnitFeatures, state: UnitState): DomainEvent[] {
  const unit = existing(state);
  const now = unit.fields.features;
  const next = command.features;
  if (now.climateControlled === next.climateControlled && now.driveUp === next.driveUp && now.floor === next.floor && now.lockType === next.lockType) return [];
  return [{ type: 'unit_features_changed', data: { unitId: command.unitId, features: next } }];
}

export function reserveUnit(command: ReserveUnit, state: UnitState): DomainEvent[] {
  const unit = existing(state);
  if (unit.fields.status === 'reserved' && unit.reservationId === command.reservationId) return [];
  if (unit.fields.status !== 'available') throw new ConflictError(`Unit ${unit.fields.unitNumber} is not available`, 'unitId');
  return [statusChanged(command.unitId, 'reserved', 'Reserved', { reservationId: command.reservationId })];
}

export function occupyUnit(command: OccupyUnit, state: UnitState): DomainEvent[] {
  const unit = existing(state);
  const { status, unitNumber } = unit.fields;
  if (status === 'occupied') {
    // The same lease asking again (a retried move-in) already holds the unit.
    if (unit.leaseId === command.leaseId) return [];
    throw new ConflictError(`Unit ${unitNumber} is already leased`, 'unitId');
  }
  if (status === 'maintenance') throw new ConflictError(`Unit ${unitNumber} is under maintenance`, 'unitId');
  if (status === 'reserved' && unit.reservationId !== null) {
    const reservedFor = command.reservation?.reservationId === unit.reservationId ? command.reservation.customerId : null;
    if (reservedFor !== command.customerId) throw new ConflictError(`Unit ${unitNumber} is reserved for another customer`, 'unitId');
  }
  return [statusChanged(command.unitId, 'occupied', 'Lease started', { leaseId: command.leaseId })];
}

export function vacateUnit(command: VacateUnit, state: UnitState): DomainEvent[] {
  const unit = existing(state);
  if (unit.fields.status !== 'occupied') return [];
  // Another lease holds the unit now: this lease let it go before. A unit occupied before
  // leases were recorded on it names no lease, and is freed by the lease that ends.
  if (unit.leaseId !== null && unit.leaseId !== command.leaseId) return [];
  return [statusChanged(command.unitId, 'available', 'Lease ended')];
}

export function releaseUnit(command: ReleaseUnit, state: UnitState): DomainEvent[] {
  const unit = existing(state);
  // Only the reservation that holds the unit lets it go: by now it may be leased, or held for another.
  if (unit.fields.status !== 'reserved' || unit.reservationId !== command.reservationId) return [];
  return [statusChanged(command.unitId, 'available', command.reason)];
}

export function returnUnit(command: ReturnUnit, state: UnitState): DomainEvent[] {
  const unit = existing(state);
  // Only the lease that took the unit gives it back; anything else happened since.
  if (unit.fields.status !== 'occupied' || unit.leaseId !== command.leaseId) return [];
  if (command.heldFor === null) return [statusChanged(command.unitId, 'available', command.reason)];
  return [statusChanged(command.unitId, 'reserved', command.reason, { reservationId: command.heldFor })];
}

export function decideUnit(command: UnitCommand, state: UnitState): DomainEvent[] {
  switch (command.type) {
    case 'AddUnit':
      return addUnit(command, state);
    case 'ChangeUnitStatus':
      return changeUnitStatus(command, state);
    case 'SetUnitFeatures':
      return setUnitFeatures(command, state);
    case 'ReserveUnit':
      return reserveUnit(command, state);
    case 'OccupyUnit':
      return occupyUnit(command, state);
    case 'VacateUnit':
      return vacateUnit(command, state);
    case 'ReleaseUnit':
      return releaseUnit(command, state);
    case 'ReturnUnit':
      return returnUnit(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
    }
  }
}
