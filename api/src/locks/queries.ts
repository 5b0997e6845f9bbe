import { LockDesiredState, LockStatus } from '@storage/contracts/enums';
import { type ListLocksQuery, LOW_BATTERY_LEVEL, type Lock, type LockException, lockSorting, offlineBefore } from '@storage/contracts/locks';
import { sortOf } from '@storage/contracts/sorting';
import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
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

/**
 * The contracts' exception rules (contracts/src/locks.ts) over a lock row, `now` on the business
 * clock. No index serves them: a fleet is thousands of locks at most (20,000 read in about 3 ms),
 * and an index on battery_level or last_seen would be rewritten by every heartbeat, which now
 * can update the row in place (HOT).
 */
function exceptionMatches(exception: LockException, now: Date): FragmentSqlToken {
  switch (exception) {
    case 'lowBattery':
      return sql.fragment`battery_level < ${LOW_BATTERY_LEVEL}`;
    case 'offline':
      return sql.fragment`(last_seen IS NULL OR last_seen < ${offlineBefore(now).toISOString()}::timestamptz)`;
    case 'notApplied':
      // The projection keeps differs_since exactly while desired and reported differ.
      return sql.fragment`differs_since IS NOT NULL`;
  }
}

/**
 * The list's query in parts, for its pages (and the plain OFFSET peer of ops/bench/reads.ts, on the
 * wall clock). Exceptions asked for together match a lock with any of them.
 */
export function locksSql(query: z.output<typeof ListLocksQuery>, now: Date = new Date()): ListSql {
  const conditions = [];
  if (query.facilityId) conditions.push(sql.fragment`facility_id = ${query.facilityId}`);
  if (query.status) conditions.push(sql.fragment`status = ${query.status}`);
  if (query.search) conditions.push(searchMatches(sql.fragment`search_text`, query.search));
  if (query.exceptions?.length) {
    conditions.push(
      sql.fragment`(${sql.join(
        query.exceptions.map((exception) => exceptionMatches(exception, now)),
        sql.fragment` OR `,
      )})`,
    );
  }
  return { select: columns, from: sql.fragment`locks`, where: allOf(conditions), orderBy: orderBy(sortColumns, sortOf(lockSorting, query), sql.fragment`id`) };
}

/** Locks are scoped by their unit's facility (spec §5), which the lock row carries. */
export async function listLocks(pool: DatabasePool, query: z.output<typeof ListLocksQuery>, now: Date) {
  const { rows, info } = await listPage(pool, LockRow, locksSql(query, now), query);
  return { locks: rows.map(toLock), paging: info };
}

export async function getLock(pool: DatabasePool, id: string): Promise<Lock | null> {
  const row = await pool.maybeOne(sql.type(LockRow)`SELECT ${columns} FROM locks WHERE id = ${id}`);
  return row ? toLock(row) : null;
}
