import { StaffRole } from '@storage/contracts/enums';
import { sortOf } from '@storage/contracts/sorting';
import { type ListStaffQuery, StaffMember, StaffStatus, staffSorting } from '@storage/contracts/staff';
import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import type { z } from 'zod';
import { allOf, type ListSql, listPage, orderBy, positionIn, type SortColumns, textOrder } from '../http/list-page.ts';

const staffMemberColumns = sql.fragment`id::text, email, first_name AS "firstName", last_name AS "lastName", role, status,
  two_factor_id IS NOT NULL AS "twoFactorEnabled", created_at AS "createdAt"`;

// The name as the list shows it: the full name, or the email for a member without one.
const name = textOrder(sql.fragment`coalesce(nullif(concat_ws(' ', first_name, last_name), ''), email)`);
const sortColumns: SortColumns<keyof typeof staffSorting.columns> = {
  name,
  email: textOrder(sql.fragment`email`),
  role: [positionIn(StaffRole.options, sql.fragment`role`), name],
  status: [positionIn(StaffStatus.options, sql.fragment`status`), name],
  createdAt: sql.fragment`created_at`,
};

/** The list's query in parts, for its pages (and the plain OFFSET peer of ops/bench/reads.ts). */
export function staffSql(query: z.output<typeof ListStaffQuery>): ListSql {
  const conditions: FragmentSqlToken[] = [];
  if (query.status) conditions.push(sql.fragment`status = ${query.status}`);
  return {
    select: staffMemberColumns,
    from: sql.fragment`staff`,
    where: allOf(conditions),
    orderBy: orderBy(sortColumns, sortOf(staffSorting, query), sql.fragment`id`),
  };
}

/** The staff accounts of a status, or all of them; by default active members first, then by name. */
export async function listStaff(pool: DatabasePool, query: z.output<typeof ListStaffQuery>) {
  const { rows, info } = await listPage(pool, StaffMember, staffSql(query), query);
  return { members: [...rows], paging: info };
}

export function getStaffMember(pool: DatabasePool, id: string) {
  return pool.maybeOne(sql.type(StaffMember)`SELECT ${staffMemberColumns} FROM staff WHERE id = ${id}`);
}

/** A staff member's name as the screens say who did something: first and last name, else the email. `s`: the staff table's alias. */
export const staffDisplayName = (s = 'staff') =>
  sql.fragment`coalesce(nullif(concat_ws(' ', ${sql.identifier([s, 'first_name'])}, ${sql.identifier([s, 'last_name'])}), ''), ${sql.identifier([s, 'email'])})`;
