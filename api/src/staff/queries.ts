import { StaffRole } from '@storage/contracts/enums';
import { sortOf } from '@storage/contracts/sorting';
import { type ListStaffQuery, StaffMember, StaffStatus, staffSorting } from '@storage/contracts/staff';
import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import type { z } from 'zod';
import { allOf, listPage, orderBy, positionIn, type SortColumns, textOrder } from '../http/list-page.ts';

const staffMemberColumns = sql.fragment`id::text, email, first_name AS "firstName", last_name AS "lastName", role, status, created_at AS "createdAt"`;

// The name as the list shows it: the full name, or the email for a member without one.
const name = textOrder(sql.fragment`coalesce(nullif(concat_ws(' ', first_name, last_name), ''), email)`);
const sortColumns: SortColumns<keyof typeof staffSorting.columns> = {
  name,
  email: textOrder(sql.fragment`email`),
  role: [positionIn(StaffRole.options, sql.fragment`role`), name],
  status: [positionIn(StaffStatus.options, sql.fragment`status`), name],
  createdAt: sql.fragment`created_at`,
};

/** The staff accounts of a status, or all of them; by default active members first, then by name. */
export async function listStaff(pool: DatabasePool, query: z.output<typeof ListStaffQuery>) {
  const conditions: FragmentSqlToken[] = [];
  if (query.status) conditions.push(sql.fragment`status = ${query.status}`);
  const { rows, total } = await listPage(
    pool,
    StaffMember,
    {
      select: staffMemberColumns,
      from: sql.fragment`staff`,
      where: allOf(conditions),
      orderBy: orderBy(sortColumns, sortOf(staffSorting, query), sql.fragment`id`),
    },
    query,
  );
  return { members: [...rows], total };
}

export function getStaffMember(pool: DatabasePool, id: string) {
  return pool.maybeOne(sql.type(StaffMember)`SELECT ${staffMemberColumns} FROM staff WHERE id = ${id}`);
}
