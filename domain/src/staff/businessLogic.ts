import type { StaffRole } from '@storage/contracts/enums';
import type { DomainEvent } from '@storage/contracts/events';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import type { StaffFields, StaffState } from './staff.ts';

// What may happen to a staff account. The rules that span accounts (the last active owner) are
// decided on what the caller read of the others: `otherActiveOwners`, counted while the staff
// roster lock is held (see commands.ts), so two owners cannot demote each other at once.

export type StaffCommand =
  | { type: 'RegisterStaff'; staffId: string; credentialId: string; fields: StaffFields }
  /** `verifiedCredentialId` is the credential the current password was checked against. */
  | { type: 'ChangePassword'; staffId: string; verifiedCredentialId: string; newCredentialId: string }
  | { type: 'ChangeRole'; staffId: string; role: StaffRole; otherActiveOwners: number }
  | { type: 'Deactivate'; staffId: string; byStaffId: string | null; otherActiveOwners: number }
  | { type: 'Reactivate'; staffId: string }
  /** `factorId`: the enrolment the member confirmed with a current code. */
  | { type: 'EnableTwoFactor'; staffId: string; factorId: string }
  /** `verifiedFactorId` is the factor the member's code was checked against. */
  | { type: 'DisableTwoFactor'; staffId: string; verifiedFactorId: string }
  | { type: 'ResetTwoFactor'; staffId: string };

const LAST_OWNER = 'The last active owner must stay an active owner: make someone else an owner first';

export function decideStaff(command: StaffCommand, state: StaffState): DomainEvent[] {
  if (command.type === 'RegisterStaff') {
    if (state.status !== 'none') throw new ConflictError('This staff account already exists');
    return [{ type: 'staff_registered', data: { staffId: command.staffId, credentialId: command.credentialId, ...command.fields } }];
  }
  if (state.status === 'none') throw new NotFoundError('Staff member not found');
  const staffId = state.staffId;
  switch (command.type) {
    case 'ChangePassword':
      // The password was changed since it was checked: the check no longer proves anything.
      if (state.credentialId !== command.verifiedCredentialId) {
        throw new ConflictError('Your password was changed at the same time. Please try again.');
      }
      return [{ type: 'staff_password_changed', data: { staffId, credentialId: command.newCredentialId } }];
    case 'ChangeRole':
      if (state.role === command.role) return [];
      if (state.status === 'active' && state.role === 'owner' && command.otherActiveOwners === 0) throw new ConflictError(LAST_OWNER, 'role');
      return [{ type: 'staff_role_changed', data: { staffId, role: command.role } }];
    case 'Deactivate':
      if (command.byStaffId === staffId) throw new DomainRuleError('You cannot deactivate your own account');
      if (state.status === 'deactivated') return [];
      if (state.role === 'owner' && command.otherActiveOwners === 0) throw new ConflictError(LAST_OWNER);
      return [{ type: 'staff_deactivated', data: { staffId } }];
    case 'Reactivate':
      if (state.status === 'active') return [];
      return [{ type: 'staff_reactivated', data: { staffId } }];
    case 'EnableTwoFactor':
      if (state.twoFactorId !== null) throw new ConflictError('Two-factor sign-in is already on: turn it off first to set it up again');
      return [{ type: 'staff_two_factor_enabled', data: { staffId, factorId: command.factorId } }];
    case 'DisableTwoFactor':
      // Reset or set up anew since the code was checked: the check no longer proves anything.
      if (state.twoFactorId !== command.verifiedFactorId) throw new ConflictError('Your two-factor sign-in was changed at the same time. Please try again.');
      return [{ type: 'staff_two_factor_disabled', data: { staffId, factorId: command.verifiedFactorId } }];
    case 'ResetTwoFactor':
      if (state.twoFactorId === null) return [];
      return [{ type: 'staff_two_factor_reset', data: { staffId, factorId: state.twoFactorId } }];
  }
}
