import type { LockDesiredState, LockStatus } from '@storage/contracts/enums';
import type { DomainEvent } from '@storage/contracts/events';
import { isLowBattery, LOW_BATTERY_LEVEL } from '@storage/contracts/locks';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import type { LockFields, LockState } from './lock.ts';

export { LOW_BATTERY_LEVEL };

export type InstallLock = { type: 'InstallLock'; lockId: string; fields: LockFields };
export type RecordLockHeartbeat = { type: 'RecordLockHeartbeat'; lockId: string; batteryLevel: number; firmwareVersion: string | null };
export type AssignLock = { type: 'AssignLock'; lockId: string; unitId: string | null };
export type ChangeLockStatus = { type: 'ChangeLockStatus'; lockId: string; status: LockStatus };
export type GrantAccess = { type: 'GrantAccess'; lockId: string; customerId: string | null; method: string };
/** What the lock should be, and why (a lockout, its end); the lock's gateway learns it. */
export type ChangeDesiredLockState = {
  type: 'ChangeDesiredLockState';
  lockId: string;
  desired: LockDesiredState;
  customerId: string | null;
  reason: string;
};
/** The gateway says what state the lock is in now. */
export type ReportLockState = { type: 'ReportLockState'; lockId: string; reported: LockDesiredState };
export type LockCommand = InstallLock | RecordLockHeartbeat | AssignLock | ChangeLockStatus | GrantAccess | ChangeDesiredLockState | ReportLockState;

function existing(state: LockState) {
  if (state.status === 'none') throw new NotFoundError('Lock not found');
  return state;
}

function requireBatteryLevel(level: number) {
  if (!Number.isInteger(level) || level < 0 || level > 100) {
    throw new DomainRuleError('The battery level must be a whole number from 0 to 100', 'batteryLevel');
  }
}

export function installLock(command: InstallLock, state: LockState): DomainEvent[] {
  if (state.status !== 'none') throw new ConflictError('This lock already exists');
  requireBatteryLevel(command.fields.batteryLevel);
  return [{ type: 'lock_installed', data: { lockId: command.lockId, ...command.fields } }];
}

export function recordLockHeartbeat(command: RecordLockHeartbeat, state: LockState): DomainEvent[] {
  const { fields } = existing(state);
  const { lockId, batteryLevel, firmwareVersion } = command;
  requireBatteryLevel(batteryLevel);
  const events: DomainEvent[] = [{ type: 'lock_heartbeat_received', data: { lockId, batteryLevel, firmwareVersion } }];
  const isLow = isLowBattery(batteryLevel);
  if (isLow && !isLowBattery(fields.batteryLevel)) {
    events.push({ type: 'lock_battery_low', data: { lockId, batteryLevel } });
    // A lock taken out of service keeps that status; only a working lock is flagged.
    if (fields.status === 'active') events.push({ type: 'lock_status_changed', data: { lockId, status: 'low_battery' } });
  }
  if (!isLow && fields.status === 'low_battery') events.push({ type: 'lock_status_changed', data: { lockId, status: 'active' } });
  return events;
}

/**
 * Whether a heartbeat decided only itself and leaves the lock's decisions as they were (its
 * battery on the same side of the low-battery line as the lock's state knows): such a heartbeat
 * goes on the lock's heartbeat stream, not its decision stream, so no lock command replays it.
 */
export function isRoutineHeartbeat(state: LockState, events: readonly DomainEvent[]): boolean {
  if (state.status === 'none' || events.length !== 1 || events[0]!.type !== 'lock_heartbeat_received') return false;
  return isLowBattery(events[0]!.data.batteryLevel) === isLowBattery(state.fields.batteryLevel);
}

export function assignLock(command: AssignLock, state: LockState): DomainEvent[] {
  if (existing(state).fields.unitId === command.unitId) return [];
  return [{ type: 'lock_assigned', data: { lockId: command.lockId, unitId: command.unitId } }];
}

export function changeLockStatus(command: ChangeLockStatus, state: LockState): DomainEvent[] {
  if (existing(state).fields.status === command.status) return [];
  return [{ type: 'lock_status_changed', data: { lockId: command.lockId, status: command.status } }];
}

export function grantAccess(command: GrantAccess, state: LockState): DomainEvent[] {
  const { status, unitId, serial } = existing(state).fields;
  if (status === 'inactive' || status === 'maintenance') throw new ConflictError(`Lock ${serial} is ${status} and cannot grant access`);
  if (unitId === null) throw new ConflictError(`Lock ${serial} is not on a unit`);
  return [{ type: 'access_granted', data: { lockId: command.lockId, unitId, customerId: command.customerId, method: command.method } }];
}

/** Already so: nothing to decide (a repeated lockout or restore decides nothing). */
export function changeDesiredLockState(command: ChangeDesiredLockState, state: LockState): DomainEvent[] {
  const lock = existing(state);
  if (lock.desired === command.desired) return [];
  const { lockId, desired, customerId, reason } = command;
  return [{ type: 'lock_desired_state_changed', data: { lockId, unitId: lock.fields.unitId, customerId, desired, reason } }];
}

/** Only a change is recorded: a gateway repeats the state on every heartbeat. */
export function reportLockState(command: ReportLockState, state: LockState): DomainEvent[] {
  if (existing(state).reported === command.reported) return [];
  return [{ type: 'lock_state_reported', data: { lockId: command.lockId, reported: command.reported } }];
}

export function decideLock(command: LockCommand, state: LockState): DomainEvent[] {
  switch (command.type) {
    case 'InstallLock':
      return installLock(command, state);
    case 'RecordLockHeartbeat':
      return recordLockHeartbeat(command, state);
    case 'AssignLock':
      return assignLock(command, state);
    case 'ChangeLockStatus':
      return changeLockStatus(command, state);
    case 'GrantAccess':
      return grantAccess(command, state);
    case 'ChangeDesiredLockState':
      return changeDesiredLockState(command, state);
    case 'ReportLockState':
      return reportLockState(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
    }
  }
}
