import type { DomainEvent } from '@storage/contracts/events';
import { streams } from '@storage/contracts/events';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { handleCommand, loadAggregate, type CommandContext } from '../commands/handle.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

// A staff member changes their own password: the current one must match what the staff stream
// holds (not the read model, which may lag), and the new hash replaces it.

export type StaffPasswordState = { status: 'none' } | { status: 'registered'; staffId: string; passwordHash: string };

export function evolveStaffPassword(state: StaffPasswordState, event: DomainEvent): StaffPasswordState {
  switch (event.type) {
    case 'staff_registered':
      return { status: 'registered', staffId: event.data.staffId, passwordHash: event.data.passwordHash };
    case 'staff_password_changed':
      return state.status === 'none' ? state : { ...state, passwordHash: event.data.passwordHash };
    default:
      return state;
  }
}

export const staffPasswordAggregate = { initial: { status: 'none' } as StaffPasswordState, evolve: evolveStaffPassword };

/** `verifiedHash` is the hash the current password was checked against; `newHash` the new password's. */
export type ChangePassword = { type: 'ChangePassword'; staffId: string; verifiedHash: string; newHash: string };

export function decidePasswordChange(command: ChangePassword, state: StaffPasswordState): DomainEvent[] {
  if (state.status === 'none') throw new NotFoundError('Staff account not found');
  // The password was changed since it was checked: the check no longer proves anything.
  if (state.passwordHash !== command.verifiedHash) throw new ConflictError('Your password was changed at the same time. Please try again.');
  return [{ type: 'staff_password_changed', data: { staffId: command.staffId, passwordHash: command.newHash } }];
}

export async function changePassword(ctx: CommandContext, staffId: string, passwords: { currentPassword: string; newPassword: string }) {
  const stream = streams.staff(staffId);
  const { state } = await loadAggregate(ctx.store, stream, staffPasswordAggregate);
  if (state.status === 'none') throw new NotFoundError('Staff account not found');
  if (!(await verifyPassword(passwords.currentPassword, state.passwordHash))) {
    throw new DomainRuleError('currentPassword: is not your current password', 'currentPassword');
  }
  const newHash = await hashPassword(passwords.newPassword);
  return handleCommand(ctx, stream, staffPasswordAggregate, (current) =>
    decidePasswordChange({ type: 'ChangePassword', staffId, verifiedHash: state.passwordHash, newHash }, current),
  );
}
