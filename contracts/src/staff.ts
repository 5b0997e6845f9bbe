import { z } from 'zod';
import { NewPassword } from './auth.ts';
import { StaffRole } from './enums.ts';
import { Email, Id, IsoDateTime, OptionalText } from './fields.ts';
import { pagingFields } from './paging.ts';
import { listSorting } from './sorting.ts';

// Staff management (owners only): the team, its roles, and who may still sign in.

export const StaffStatus = z.enum(['active', 'deactivated']);
export type StaffStatus = z.infer<typeof StaffStatus>;

export const StaffMember = z.object({
  id: Id,
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: StaffRole,
  status: StaffStatus,
  /** Whether the member signs in with a code from an authenticator app too. */
  twoFactorEnabled: z.boolean(),
  createdAt: IsoDateTime,
});
export type StaffMember = z.infer<typeof StaffMember>;

export const StaffParams = z.strictObject({ id: Id });

/**
 * Name is the full name (the email for a member without one); role and status in the order of
 * their lists, each then by name, so by default active members come first, A→Z.
 */
export const staffSorting = listSorting({ name: 'asc', email: 'asc', role: 'asc', status: 'asc', createdAt: 'desc' }, 'status');

export const ListStaffQuery = z.strictObject({ status: StaffStatus.optional(), ...staffSorting.fields, ...pagingFields });
export type ListStaffQuery = z.input<typeof ListStaffQuery>;

/** The owner types the new member's temporary password and hands it over; the member changes it in Settings. */
export const AddStaffRequest = z.strictObject({
  email: Email,
  firstName: OptionalText(100),
  lastName: OptionalText(100),
  role: StaffRole,
  password: NewPassword,
});
export type AddStaffRequest = z.input<typeof AddStaffRequest>;

export const ChangeStaffRoleRequest = z.strictObject({ role: StaffRole });
export type ChangeStaffRoleRequest = z.input<typeof ChangeStaffRoleRequest>;

export const staffRoleLabels: Record<StaffRole, string> = {
  owner: 'Owner',
  manager: 'Manager',
  clerk: 'Clerk',
  auditor: 'Auditor',
};
