import { StaffMember } from '@storage/contracts/staff';
import { type DatabasePool, sql } from 'slonik';

const staffMemberColumns = sql.fragment`id::text, email, first_name AS "firstName", last_name AS "lastName", role, status, created_at AS "createdAt"`;

/** Every staff account, active ones first, then by name. */
export function listStaff(pool: DatabasePool) {
  return pool.any(sql.type(StaffMember)`
    SELECT ${staffMemberColumns} FROM staff
    ORDER BY status = 'active' DESC, lower(concat_ws(' ', first_name, last_name, email)), id`);
}

export function getStaffMember(pool: DatabasePool, id: string) {
  return pool.maybeOne(sql.type(StaffMember)`SELECT ${staffMemberColumns} FROM staff WHERE id = ${id}`);
}
