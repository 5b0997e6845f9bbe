import { randomUUID } from 'node:crypto';
import type { StaffRole } from '@storage/contracts/enums';
import { streams } from '@storage/contracts/events';
import { type CommonQueryMethods, type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { type CommandContext, handleCommand } from '../commands/handle.ts';
import { type UniqueKey, withUniqueKey } from '../commands/unique-keys.ts';
import { decideStaff } from '../staff/businessLogic.ts';
import { staffAggregate } from '../staff/staff.ts';
import { storeCredential } from './credentials.ts';

export interface NewStaff {
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: StaffRole;
  password: string;
}

/** A command on staff accounts: also writes the credentials table of the write side's database. */
export type StaffCommandContext = CommandContext & { pool: DatabasePool };

export async function registerStaff(ctx: StaffCommandContext, staff: NewStaff, staffId: string = randomUUID()) {
  const stream = streams.staff(staffId);
  const key: UniqueKey = {
    kind: 'staff-email',
    value: staff.email,
    ownerStream: stream,
    field: 'email',
    takenMessage: `A staff account with the email ${staff.email} already exists`,
  };
  const result = await withUniqueKey(ctx, key, async () => {
    const credentialId = await storeCredential(ctx.pool, staffId, staff.password);
    const fields = { email: staff.email.toLowerCase(), firstName: staff.firstName, lastName: staff.lastName, role: staff.role };
    return handleCommand(ctx, stream, staffAggregate, (state) => decideStaff({ type: 'RegisterStaff', staffId, credentialId, fields }, state));
  });
  return { staffId, position: result.position };
}

const StaffRoleSchema = z.enum(['owner', 'manager', 'clerk', 'auditor']);

/** An active staff member as the read model shows them (no credential). */
export const StaffRow = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  profile_image_url: z.string().nullable(),
  role: StaffRoleSchema,
});
export type StaffRow = z.infer<typeof StaffRow>;

/**
 * What sign-in checks: the member, the hash of their current credential, and their current
 * two-factor factor (a row of the API's staff_two_factor; null: two-factor sign-in is off).
 */
export const StaffSignInRow = StaffRow.extend({ password_hash: z.string(), two_factor_id: z.string().nullable() });
export type StaffSignInRow = z.infer<typeof StaffSignInRow>;

/** The active member with this email and their current credential; deactivated members are not found. */
export function findStaffByEmail(db: CommonQueryMethods, email: string) {
  return db.maybeOne(sql.type(StaffSignInRow)`
    SELECT s.id::text, s.email, s.first_name, s.last_name, s.profile_image_url, s.role, c.password_hash, s.two_factor_id::text
    FROM staff s JOIN staff_credentials c ON c.credential_id = s.credential_id AND c.staff_id = s.id
    WHERE s.email = ${email.toLowerCase()} AND s.status = 'active'`);
}

export async function staffCount(pool: DatabasePool): Promise<number> {
  return pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int8 AS n FROM staff`);
}
