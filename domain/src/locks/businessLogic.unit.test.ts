import type { LockStatus } from '@storage/contracts/enums';
import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { decideLock, isRoutineHeartbeat, type LockCommand } from './businessLogic.ts';
import { evolveLock, initialLockState, type LockFields } from './lock.ts';

const given = (...events: DomainEvent[]) => ({
  when: (command: LockCommand) => decideLock(command, events.reduce(evolveLock, initialLockState)),
});

const lockId = '4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a08';
const unitId = '5d2c9a51-7a0e-4c43-8d3b-7a5a1f0e4b02';
const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const fields: LockFields = { serial: 'NK-100234', unitId, status: 'active', batteryLevel: 100, firmwareVersion: '2.4.0' };
const installed: DomainEvent = { type: 'lock_installed', data: { lockId, ...fields } };
const heartbeat = (batteryLevel: number, firmwareVersion: string | null = '2.4.0'): DomainEvent => ({
  type: 'lock_heartbeat_received',
  data: { lockId, batteryLevel, firmwareVersion },
});
const statusChanged = (status: LockStatus): DomainEvent => ({ type: 'lock_status_changed', data: { lockId, status } });
const batteryLow = (batteryLevel: number): DomainEvent => ({ type: 'lock_battery_low', data: { lockId, batteryLevel } });

describe('install lock', () => {
  it('installs a lock', () => {
    expect(given().when({ type: 'InstallLock', lockId, fields })).toEqual([installed]);
  });

  it('refuses to install a lock twice', () => {
    expect(() => given(installed).when({ type: 'InstallLock', lockId, fields })).toThrow(ConflictError);
  });

  it.each([-1, 101, 50.5])('refuses a battery level of %s', (batteryLevel) => {
    expect(() => given().when({ type: 'InstallLock', lockId, fields: { ...fields, batteryLevel } })).toThrow(DomainRuleError);
  });
});

describe('record lock heartbeat', () => {
  it('records the battery level', () => {
    expect(given(installed).when({ type: 'RecordLockHeartbeat', lockId, batteryLevel: 45, firmwareVersion: '2.4.0' })).toEqual([heartbeat(45)]);
  });

  it('reports low battery and flags the lock when the level drops under 20', () => {
    expect(given(installed, heartbeat(20)).when({ type: 'RecordLockHeartbeat', lockId, batteryLevel: 19, firmwareVersion: '2.4.0' })).toEqual([
      heartbeat(19),
      batteryLow(19),
      statusChanged('low_battery'),
    ]);
  });

  it('reports low battery only once while the level stays low', () => {
    const history = [installed, heartbeat(19), batteryLow(19), statusChanged('low_battery')];
    expect(given(...history).when({ type: 'RecordLockHeartbeat', lockId, batteryLevel: 15, firmwareVersion: '2.4.0' })).toEqual([heartbeat(15)]);
  });

  it('keeps a lock in maintenance in maintenance when its battery runs low', () => {
    expect(given(installed, statusChanged('maintenance')).when({ type: 'RecordLockHeartbeat', lockId, batteryLevel: 10, firmwareVersion: '2.4.0' })).toEqual([
      heartbeat(10),
      batteryLow(10),
    ]);
  });

  it('puts a low-battery lock back to active once its battery is replaced', () => {
    const history = [installed, heartbeat(19), batteryLow(19), statusChanged('low_battery')];
    expect(given(...history).when({ type: 'RecordLockHeartbeat', lockId, batteryLevel: 100, firmwareVersion: '2.4.0' })).toEqual([
      heartbeat(100),
      statusChanged('active'),
    ]);
  });

  it('finds a heartbeat that changes nothing but itself routine: it goes off the decision stream', () => {
    const state = [installed, heartbeat(60)].reduce(evolveLock, initialLockState);
    expect(isRoutineHeartbeat(state, decideLock({ type: 'RecordLockHeartbeat', lockId, batteryLevel: 55, firmwareVersion: null }, state))).toBe(true);
  });

  it('keeps on the decision stream a heartbeat that crosses the low-battery line, either way, even when it decides nothing else', () => {
    const high = [installed, statusChanged('maintenance')].reduce(evolveLock, initialLockState);
    expect(isRoutineHeartbeat(high, decideLock({ type: 'RecordLockHeartbeat', lockId, batteryLevel: 10, firmwareVersion: null }, high))).toBe(false);
    const low = [installed, statusChanged('maintenance'), heartbeat(10), batteryLow(10)].reduce(evolveLock, initialLockState);
    const recovered = decideLock({ type: 'RecordLockHeartbeat', lockId, batteryLevel: 90, firmwareVersion: null }, low);
    expect(recovered).toEqual([heartbeat(90, null)]);
    expect(isRoutineHeartbeat(low, recovered)).toBe(false);
    // So a later drop is flagged again, as it was when every heartbeat was on the lock's stream.
    const afterRecovery = [installed, statusChanged('maintenance'), heartbeat(10), batteryLow(10), heartbeat(90)].reduce(evolveLock, initialLockState);
    expect(decideLock({ type: 'RecordLockHeartbeat', lockId, batteryLevel: 5, firmwareVersion: null }, afterRecovery)).toContainEqual(batteryLow(5));
  });

  it('keeps on the decision stream a heartbeat that changes the status', () => {
    const flagged = [installed, statusChanged('low_battery')].reduce(evolveLock, initialLockState);
    expect(isRoutineHeartbeat(flagged, decideLock({ type: 'RecordLockHeartbeat', lockId, batteryLevel: 100, firmwareVersion: null }, flagged))).toBe(false);
  });

  it('keeps the known firmware version when a heartbeat does not report one', () => {
    const state = [installed, heartbeat(90, null)].reduce(evolveLock, initialLockState);
    expect(state.status === 'current' && state.fields.firmwareVersion).toBe('2.4.0');
  });

  it('refuses a battery level over 100', () => {
    expect(() => given(installed).when({ type: 'RecordLockHeartbeat', lockId, batteryLevel: 101, firmwareVersion: null })).toThrow(DomainRuleError);
  });

  it('cannot record a heartbeat of a lock that does not exist', () => {
    expect(() => given().when({ type: 'RecordLockHeartbeat', lockId, batteryLevel: 50, firmwareVersion: null })).toThrow(NotFoundError);
  });
});

describe('assign lock', () => {
  const spare: DomainEvent = { type: 'lock_installed', data: { lockId, ...fields, unitId: null } };

  it('assigns a spare lock to a unit', () => {
    expect(given(spare).when({ type: 'AssignLock', lockId, unitId })).toEqual([{ type: 'lock_assigned', data: { lockId, unitId } }]);
  });

  it('takes a lock off its unit', () => {
    expect(given(installed).when({ type: 'AssignLock', lockId, unitId: null })).toEqual([{ type: 'lock_assigned', data: { lockId, unitId: null } }]);
  });

  it('records nothing when the lock is already on that unit', () => {
    expect(given(installed).when({ type: 'AssignLock', lockId, unitId })).toEqual([]);
  });
});

describe('change lock status', () => {
  it('changes the status', () => {
    expect(given(installed).when({ type: 'ChangeLockStatus', lockId, status: 'maintenance' })).toEqual([statusChanged('maintenance')]);
  });

  it('records nothing when the status stays the same', () => {
    expect(given(installed).when({ type: 'ChangeLockStatus', lockId, status: 'active' })).toEqual([]);
  });
});

describe('grant access', () => {
  const access = { type: 'GrantAccess', lockId, customerId, method: 'keypad' } as const;
  const granted: DomainEvent = { type: 'access_granted', data: { lockId, unitId, customerId, method: 'keypad' } };

  it('grants access at the unit the lock is on', () => {
    expect(given(installed).when(access)).toEqual([granted]);
  });

  it('still grants access while the battery is low', () => {
    expect(given(installed, statusChanged('low_battery')).when(access)).toEqual([granted]);
  });

  it.each(['maintenance', 'inactive'] as const)('refuses access through a lock that is %s', (status) => {
    expect(() => given(installed, statusChanged(status)).when(access)).toThrow(ConflictError);
  });

  it('refuses access through a lock that is on no unit', () => {
    expect(() => given(installed, { type: 'lock_assigned', data: { lockId, unitId: null } }).when(access)).toThrow(/not on a unit/);
  });
});

describe('desired and reported states', () => {
  const overlock = { type: 'ChangeDesiredLockState', lockId, desired: 'overlocked', customerId, reason: 'Lockout' } as const;
  const overlocked: DomainEvent = { type: 'lock_desired_state_changed', data: { lockId, unitId, customerId, desired: 'overlocked', reason: 'Lockout' } };

  it('changes what the lock should be once: a repeat decides nothing', () => {
    expect(given(installed).when(overlock)).toEqual([overlocked]);
    expect(given(installed, overlocked).when(overlock)).toEqual([]);
    // A new lock is normal already.
    expect(given(installed).when({ ...overlock, desired: 'normal' })).toEqual([]);
  });

  it('records what the gateway reports only when it changes', () => {
    const reported: DomainEvent = { type: 'lock_state_reported', data: { lockId, reported: 'overlocked' } };
    expect(given(installed).when({ type: 'ReportLockState', lockId, reported: 'overlocked' })).toEqual([reported]);
    expect(given(installed, reported).when({ type: 'ReportLockState', lockId, reported: 'overlocked' })).toEqual([]);
    expect(() => given().when({ type: 'ReportLockState', lockId, reported: 'normal' })).toThrow(NotFoundError);
  });
});
