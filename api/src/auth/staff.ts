import { randomUUID } from 'node:crypto';
import type { StaffRole } from '@storage/contracts/enums';
import { streams } from '@storage/contracts/events';
import { sql, type CommonQueryMethods, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { ConflictError } from '../commands/errors.ts';
import { handleCommand, type CommandContext } from '../commands/handle.ts';
import { withUniqueKey } from '../commands/unique-keys.ts';
import { hashPassword } from './passwords.ts';

export interface NewStaff {
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: StaffRole;
  password: string;
}

type StaffState = { registered: boolean };
const staffAggregate = {
  initial: { registered: false } as StaffState,
  evolve: (state: StaffState, event: { type: string }): StaffState => (event.type === 'staff_registered' ? { registered: true } : state),
};

export async function registerStaff(ctx: CommandContext, staff: NewStaff, staffId: string = randomUUID()) {
  const stream = streams.staff(staffId);
  const passwordHash = await hashPassword(staff.password);
  const key = {
    kind: 'staff-email',
    value: staff.email,
    ownerStream: stream,
    field: 'email',
    takenMessage: `A staff account with the email ${staff.email} already exists`,
  };
  const result = await withUniqueKey(ctx, key, () => handleCommand(ctx, stream, staffAggregate, (state) => {
    if (state.registered) throw new ConflictError('This staff account already exists');
    return [
      {
        type: 'staff_registered',
        data: { staffId, email: staff.email.toLowerCase(), firstName: staff.firstName, lastName: staff.lastName, role: staff.role, passwordHash },
      },
    ];
  }));
  return { staffId, position: result.position };
}

export const StaffRow = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  profile_image_url: z.string().nullable(),
  role: z.enum(['owner', 'manager', 'clerk', 'auditor']),
  password_hash: z.string(),
});
export type StaffRow = z.infer<typeof StaffRow>;

export function findStaffByEmail(db: CommonQueryMethods, email: string) {
  return db.maybeOne(sql.type(StaffRow)`
    SELECT id::text, email, first_name, last_name, profile_image_url, role, password_hash FROM staff WHERE email = ${email.toLowerCase()}`);
}

export function findStaffById(pool: DatabasePool, id: string) {
  return pool.maybeOne(sql.type(StaffRow)`
    SELECT id::text, email, first_name, last_name, profile_image_url, role, password_hash FROM staff WHERE id = ${id}`);
}

export async function staffCount(pool: DatabasePool): Promise<number> {
  return pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int8 AS n FROM staff`);
}
