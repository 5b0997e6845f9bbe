import type { UnitStatus } from '@storage/contracts/enums';
import type { DomainEvent } from '@storage/contracts/events';
import { toCents } from '@storage/contracts/money';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import type { UnitFields, UnitState } from './unit.ts';

// A unit is occupied exactly while a lease holds it: only OccupyUnit and VacateUnit, which the
// lease commands send, move a unit into or out of "occupied".

export type AddUnit = { type: 'AddUnit'; unitId: string; fields: UnitFields };
export type ChangeUnitStatus = { type: 'ChangeUnitStatus'; unitId: string; status: UnitStatus; reason: string | null };
export type OccupyUnit = { type: 'OccupyUnit'; unitId: string };
export type VacateUnit = { type: 'VacateUnit'; unitId: string };
export type UnitCommand = AddUnit | ChangeUnitStatus | OccupyUnit | VacateUnit;

const occupiedByLeaseOnly = 'A unit becomes occupied only when a lease starts';

function existing(state: UnitState) {
  if (state.status === 'none') throw new NotFoundError('Unit not found');
  return state;
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
  return [{ type: 'unit_status_changed', data: { unitId: command.unitId, status: command.status, reason: command.reason } }];
}

export function occupyUnit(command: OccupyUnit, state: UnitState): DomainEvent[] {
  const unit = existing(state);
  const { status, unitNumber } = unit.fields;
  if (status === 'occupied') throw new ConflictError(`Unit ${unitNumber} is already leased`, 'unitId');
  if (status === 'maintenance') throw new ConflictError(`Unit ${unitNumber} is under maintenance`, 'unitId');
  return [{ type: 'unit_status_changed', data: { unitId: command.unitId, status: 'occupied', reason: 'Lease started' } }];
}

export function vacateUnit(command: VacateUnit, state: UnitState): DomainEvent[] {
  if (existing(state).fields.status !== 'occupied') return [];
  return [{ type: 'unit_status_changed', data: { unitId: command.unitId, status: 'available', reason: 'Lease ended' } }];
}

export function decideUnit(command: UnitCommand, state: UnitState): DomainEvent[] {
  switch (command.type) {
    case 'AddUnit':
      return addUnit(command, state);
    case 'ChangeUnitStatus':
      return changeUnitStatus(command, state);
    case 'OccupyUnit':
      return occupyUnit(command, state);
    case 'VacateUnit':
      return vacateUnit(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
    }
  }
}
