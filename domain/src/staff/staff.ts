import type { StaffRole } from '@storage/contracts/enums';
import type { DomainEvent } from '@storage/contracts/events';
import type { StaffStatus } from '@storage/contracts/staff';

// A staff member's stream: who they are, their role, whether they may sign in, and which
// credential (a row of the write side's staff_credentials, never the hash) is current, and which
// two-factor factor (a row of staff_two_factor, never its secret), if any.

export type StaffFields = {
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: StaffRole;
};

export type StaffState = { status: 'none' } | ({ status: StaffStatus; staffId: string; credentialId: string; twoFactorId: string | null } & StaffFields);

export const initialStaffState: StaffState = { status: 'none' };

export function evolveStaff(state: StaffState, event: DomainEvent): StaffState {
  switch (event.type) {
    case 'staff_registered': {
      const { staffId, credentialId, email, firstName, lastName, role } = event.data;
      return { status: 'active', staffId, credentialId, twoFactorId: null, email, firstName, lastName, role };
    }
    case 'staff_password_changed':
      return state.status === 'none' ? state : { ...state, credentialId: event.data.credentialId };
    case 'staff_role_changed':
      return state.status === 'none' ? state : { ...state, role: event.data.role };
    case 'staff_deactivated':
      return state.status === 'none' ? state : { ...state, status: 'deactivated' };
    case 'staff_reactivated':
      return state.status === 'none' ? state : { ...state, status: 'active' };
    case 'staff_two_factor_enabled':
      return state.status === 'none' ? state : { ...state, twoFactorId: event.data.factorId };
    case 'staff_two_factor_disabled':
    case 'staff_two_factor_reset':
      return state.status === 'none' ? state : { ...state, twoFactorId: null };
    default:
      return state;
  }
}

export const staffAggregate = { initial: initialStaffState, evolve: evolveStaff };
