import { LockDesiredState, LockStatus } from '@storage/contracts/enums';
import { type ListLocksQuery, type Lock, lockSorting } from '@storage/contracts/locks';
import { sortOf } from '@storage/contracts/sorting';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { allOf, type ListSql, listPage, nullsLast, orderBy, positionIn, type SortColumns, searchMatches, textOrder } from '../http/list-page.ts';

const LockRow = z.object({
  id: z.string(),
  lock_id: z.string(),
  unit_id: z.string().nullable(),
  unit_number: z.string().nullable(),
  facility_id: z.string().nullable(),
  status: LockStatus,
  battery_level: z.number().nullable(),
  last_seen: z.string().nullable(),
  firmware_version: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  desired_state: LockDesiredState,
  reported_state: LockDesiredState.nullable(),
  reported_at: z.string().nullable(),
  differs_since: z.string().nullable(),
});

const columns = sql.fragment`
  id::text, lock_id, unit_id::text, unit_number, facility_id::text, status, battery_level, last_seen, firmware_version,
  created_at, updated_at, desired_state, reported_state, reported_at, differs_since`;

function toLock(row: z.infer<typeof LockRow>): Lock {
  return {
    id: row.id,
    lockId: row.lock_id,
    unitId: row.unit_id,
    status: row.status,
    batteryLevel: row.battery_level,
    lastSeen: row.last_seen,
    firmwareVersion: row.firmware_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    // A unit the read model does not know (yet) is no unit to show.
    unit: row.unit_id && row.unit_number !== null ? { id: row.unit_id, facilityId: row.facility_id, unitNumber: row.unit_number } : null,
    desiredState: row.desired_state,
    reportedState: row.reported_state,
    reportedAt: row.reported_at,
    differsSince: row.differs_since,
  };
}

const lockId = textOrder(sql.fragment`lock_id`);
const sortColumns: SortColumns<keyof typeof lockSorting.columns> = {
  lockId,
  // The unit number the lock row carries (null on no unit: last).
  unit: [nullsLast(textOrder(sql.fragment`unit_number`)), lockId],
  status: [positionIn(LockStatus.options, sql.fragment`status`), lockId],
  batteryLevel: [nullsLast(sql.fragment`battery_level`), lockId],
  lastSeen: [nullsLast(sql.fragment`last_seen`), lockId],
};

/** The list's query in parts, for its pages (and the plain OFFSET peer of ops/bench/reads.ts). */
export function locksSql(query: z.output<typeof ListLocksQuery>): ListSql {
  const conditions = [];
  if (query.facilityId) conditions.push(sql.fragment`facility_id = ${query.facilityId}`);
  if (query.status) conditions.push(sql.fragment`status = ${query.status}`);
  if (query.search) conditions.push(searchMatches(sql.fragment`search_text`, query.search));
  return { select: columns, from: sql.fragment`locks`, where: allOf(conditions), orderBy: orderBy(sortColumns, sortOf(lockSorting, query), sql.fragment`id`) };
}

/** Locks are scoped by their unit's facility (spec §5), which the lock row carries. */
export async function listLocks(pool: DatabasePool, query: z.output<typeof ListLocksQuery>) {
  const { rows, info } = await listPage(pool, LockRow, locksSql(query), query);
  return { locks: rows.map(toLock), paging: info };
}

export async function getLock(pool: DatabasePool, id: string): Promise<Lock | null> {
  const row = await pool.maybeOne(sql.type(LockRow)`SELECT ${columns} FROM locks WHERE id = ${id}`);
  return row ? toLock(row) : null;
}
