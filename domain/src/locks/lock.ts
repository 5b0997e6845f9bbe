import type { LockDesiredState } from '@storage/contracts/enums';
import type { DomainEvent, EventData } from '@storage/contracts/events';

export type LockFields = Omit<EventData<'lock_installed'>, 'lockId'>;

/**
 * desired: what the lock should be (a lockout overlocks it); reported: what its gateway last said
 * it is (null: never reported).
 */
export type LockState =
  | { status: 'none' }
  | { status: 'current'; lockId: string; fields: LockFields; desired: LockDesiredState; reported: LockDesiredState | null };

export const initialLockState: LockState = { status: 'none' };

export function evolveLock(state: LockState, event: DomainEvent): LockState {
  if (event.type === 'lock_installed') {
    const { lockId, ...fields } = event.data;
    return { status: 'current', lockId, fields, desired: 'normal', reported: null };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'lock_heartbeat_received': {
      const { batteryLevel, firmwareVersion } = event.data;
      return { ...state, fields: { ...state.fields, batteryLevel, firmwareVersion: firmwareVersion ?? state.fields.firmwareVersion } };
    }
    case 'lock_status_changed':
      return { ...state, fields: { ...state.fields, status: event.data.status } };
    case 'lock_assigned':
      return { ...state, fields: { ...state.fields, unitId: event.data.unitId } };
    case 'lock_desired_state_changed':
      return { ...state, desired: event.data.desired };
    case 'lock_state_reported':
      return { ...state, reported: event.data.reported };
    default:
      return state;
  }
}

export const lockAggregate = { initial: initialLockState, evolve: evolveLock };
