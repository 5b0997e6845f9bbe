import { streams } from '@storage/contracts/events';
import { DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { handleCommand, loadAggregate } from '../commands/handle.ts';
import { decideStaff } from '../staff/businessLogic.ts';
import { staffAggregate } from '../staff/staff.ts';
import { credentialHash, storeCredential } from './credentials.ts';
import { verifyPassword } from './passwords.ts';
import type { StaffCommandContext } from './staff.ts';

// A staff member changes their own password: the current one must match the credential the staff
// stream names (not the read model, which may lag); the new password becomes a new credential,
// which the staff_password_changed event names.

export async function changePassword(ctx: StaffCommandContext, staffId: string, passwords: { currentPassword: string; newPassword: string }) {
  const stream = streams.staff(staffId);
  const { state } = await loadAggregate(ctx.store, stream, staffAggregate);
  if (state.status === 'none') throw new NotFoundError('Staff account not found');
  const currentHash = await credentialHash(ctx.pool, staffId, state.credentialId);
  if (!currentHash || !(await verifyPassword(passwords.currentPassword, currentHash))) {
    throw new DomainRuleError('currentPassword: is not your current password', 'currentPassword');
  }
  const newCredentialId = await storeCredential(ctx.pool, staffId, passwords.newPassword);
  return handleCommand(ctx, stream, staffAggregate, (current) =>
    decideStaff({ type: 'ChangePassword', staffId, verifiedCredentialId: state.credentialId, newCredentialId }, current),
  );
}
