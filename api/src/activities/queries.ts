import { type Activity, type ActivityTabCounts, activitySorting, activityTabTypes, type ListActivitiesQuery } from '@storage/contracts/activities';
import { ActivityType } from '@storage/contracts/enums';
import { TOTAL_COUNT_CAP } from '@storage/contracts/paging';
import { sortOf } from '@storage/contracts/sorting';
import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import { allOf, listPage, orderBy, type PageSpans, SEARCH_COUNTED_UP_TO, type SortColumns, searchMatches } from '../http/list-page.ts';
import { staffDisplayName } from '../staff/queries.ts';

const ActivityRow = z.object({
  id: z.string(),
  type: ActivityType,
  description: z.string(),
  created_at: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  customer_id: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  staff_id: z.string().nullable(),
  staff_name: z.string().nullable(),
  staff_email: z.string().nullable(),
});

const tabs = Object.keys(activityTabTypes) as Array<keyof typeof activityTabTypes>;
// Each entry keeps its tab (activityTabOf), so a tab is one index range in the feed's order.
const inTab = (tab: keyof typeof activityTabTypes) => sql.fragment`a.tab = ${tab}`;

function matching(filter: { search?: string; type?: string; facilityId?: string; customerId?: string }): FragmentSqlToken[] {
  const conditions = [];
  if (filter.facilityId) conditions.push(sql.fragment`a.facility_id = ${filter.facilityId}`);
  if (filter.customerId) conditions.push(sql.fragment`a.customer_id = ${filter.customerId}`);
  if (filter.type) conditions.push(sql.fragment`a.type = ${filter.type}`);
  if (filter.search) conditions.push(searchMatches(sql.fragment`a.search_text`, filter.search));
  return conditions;
}

function toActivity(row: z.infer<typeof ActivityRow>): Activity {
  return {
    id: row.id,
    type: row.type,
    description: row.description,
    createdAt: row.created_at,
    metadata: row.metadata,
    customer:
      row.email === null || row.customer_id === null
        ? null
        : { id: row.customer_id, firstName: row.first_name ?? '', lastName: row.last_name ?? '', email: row.email },
    staff:
      row.staff_id === null || row.staff_name === null || row.staff_email === null ? null : { id: row.staff_id, name: row.staff_name, email: row.staff_email },
  };
}

// Entries of one instant in the order they were recorded; each filter's index ends in (created_at,
// recorded_order), so a page from a cursor is an index range however deep it is.
const sortColumns: SortColumns<keyof typeof activitySorting.columns> = { createdAt: sql.fragment`a.created_at` };

/** The feed's entries per UTC day (the activities projection's count, migration 043). */
const activityDays: PageSpans = { table: sql.fragment`activity_days`, start: sql.fragment`day`, entries: sql.fragment`entries` };

/** Newest first unless asked otherwise: one page, its total and the cursors either side. */
export async function listActivities(pool: DatabasePool, query: z.output<typeof ListActivitiesQuery>) {
  const conditions = matching(query);
  if (query.tab !== 'all') conditions.push(inTab(query.tab));
  const { rows, info } = await listPage(
    pool,
    ActivityRow,
    {
      // Ids as the wire sends them (text): no cast per row, which a deep page would pay for every row it skips.
      select: sql.fragment`a.id, a.type, a.description, a.created_at, a.metadata, c.id AS customer_id, c.first_name, c.last_name, c.email,
        s.id AS staff_id, ${staffDisplayName('s')} AS staff_name, s.email AS staff_email`,
      from: sql.fragment`activities a LEFT JOIN customers c ON c.id = a.customer_id LEFT JOIN staff s ON s.id = a.user_id`,
      where: allOf(conditions),
      orderBy: orderBy(sortColumns, sortOf(activitySorting, query), sql.fragment`a.recorded_order`),
      ...(query.search && { countUpTo: SEARCH_COUNTED_UP_TO }),
      // The whole feed: a page by number is read from the day it starts in.
      ...(conditions.length === 0 && { spans: activityDays }),
    },
    query,
  );
  return { activities: rows.map(toActivity), info };
}

const CountsRow = z.object({ all: z.number(), ...Object.fromEntries(tabs.map((tab) => [tab, z.number()])) });

/**
 * How many entries of the filtered feed each tab holds: each counted up to the paging contract's
 * cap (an index range of at most that many entries), past it "at least" the cap.
 */
export async function countActivitiesByTab(
  pool: DatabasePool,
  filter: { search?: string; type?: string; facilityId?: string; customerId?: string },
): Promise<ActivityTabCounts> {
  const capped = (conditions: FragmentSqlToken[], name: string) =>
    sql.fragment`(SELECT count(*) FROM (SELECT 1 FROM activities a WHERE ${allOf(conditions)} LIMIT ${TOTAL_COUNT_CAP + 1}) AS capped)::int8 AS ${sql.identifier([name])}`;
  const row = await pool.one(sql.type(CountsRow)`
    SELECT ${sql.join([capped(matching(filter), 'all'), ...tabs.map((tab) => capped([...matching(filter), inTab(tab)], tab))], sql.fragment`, `)}`);
  return Object.fromEntries(
    Object.entries(row).map(([tab, count]) => [tab, count > TOTAL_COUNT_CAP ? { count: TOTAL_COUNT_CAP, kind: 'atLeast' } : { count, kind: 'exact' }]),
  ) as ActivityTabCounts;
}
