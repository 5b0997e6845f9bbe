import type { BuildingOccupancy, DashboardMetrics, RecentCustomer } from '@storage/contracts/dashboard';
import { RECENT_CUSTOMERS_LIMIT } from '@storage/contracts/dashboard';
import { toCents } from '@storage/contracts/money';
import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import { CustomerRow, columns as customerColumns, toCustomer } from '../customers/queries.ts';
import { allOf, containsPattern, searchMatches } from '../http/list-page.ts';
import { monthStart, occupancyRate, percentChange, pointsChange, sameDayLastMonth } from './month-over-month.ts';

/** `column = facilityId`, or everything when no facility is selected. */
export function inFacility(column: FragmentSqlToken, facilityId: string | undefined): FragmentSqlToken {
  return facilityId ? sql.fragment`${column} = ${facilityId}` : sql.fragment`true`;
}

const UnitCountsRow = z.object({ total: z.number(), occupied: z.number() });
const CountRow = z.object({ n: z.number() });
const BuildingRow = z.object({
  building: z.string(),
  facility_id: z.string().nullable(),
  facility_name: z.string().nullable(),
  total: z.number(),
  occupied: z.number(),
});
const MonthToDayRow = z.object({
  customers_added: z.number(),
  units_change: z.number(),
  occupied_units_change: z.number(),
  units_change_since: z.number(),
  occupied_units_change_since: z.number(),
  has_earlier_months: z.boolean(),
});

export async function unitCounts(pool: DatabasePool, facilityId: string | undefined) {
  return pool.one(sql.type(UnitCountsRow)`
    SELECT count(*)::int8 AS total, count(*) FILTER (WHERE status = 'occupied')::int8 AS occupied
    FROM units WHERE ${inFacility(sql.fragment`facility_id`, facilityId)}`);
}

/**
 * Active customers at the end of `day`: renters with a lease in effect then (started by that day
 * and not ended by it), in their own facility. Whether they are overdue does not matter (an
 * overdue renter still rents); a customer without a lease is not one.
 */
export async function activeCustomerCount(pool: DatabasePool, facilityId: string | undefined, day: string): Promise<number> {
  return pool.oneFirst(sql.type(CountRow)`
    SELECT count(*)::int8 AS n FROM customers c
    WHERE ${inFacility(sql.fragment`c.facility_id`, facilityId)}
      AND EXISTS (SELECT 1 FROM leases l WHERE l.customer_id = c.id AND l.start_date <= ${day} AND (l.end_date IS NULL OR l.end_date > ${day}))`);
}

const LedgerMoneyRow = z.object({
  revenue: z.string(),
  same_days_last_month_revenue: z.string(),
  outstanding: z.string(),
  outstanding_last_month_end: z.string(),
  overdue: z.string(),
  has_earlier_months: z.boolean(),
});

/**
 * Ledger entries that are money moving (for revenue): payments, the part of a desk payment kept as
 * credit, refunds (positive, so they subtract); not charges, staff credits, write-offs or voids.
 * The report-totals projection applies the same rule as rows arrive (money_months): change both.
 */
export const isMoneyEntry = (le: string) =>
  sql.fragment`(${sql.identifier([le, 'kind'])} IN ('payment', 'refund') OR ${sql.identifier([le, 'method'])} IS NOT NULL OR ${sql.identifier([le, 'receipt_id'])} IS NOT NULL)`;

/**
 * The dashboard's money from the ledger, on the facilities' own dates (entry_date), at the end of `day`:
 * - revenue: money in during `day`'s month up to it, less refunds (and the same days of last month),
 *   in the facility where it was taken;
 * - outstanding: what renters owe, each renter's balance counted when positive (a renter's credit
 *   is not netted against another's debt), at `day` and at the end of last month;
 * - overdue: the part of each renter's balance that is past due: their balance less what was
 *   charged on invoices not yet due at `day` (payments pay the oldest first), never below 0.
 * Renters count in their current facility. A renter's balance at `day` is their balance
 * (customer_balances, kept by the report-totals projection) less their entries dated after it,
 * read from the start of `day`'s month: today that is about a month of entries, not the ledger.
 */
async function ledgerMoney(pool: DatabasePool, facilityId: string | undefined, day: string) {
  const start = monthStart(day);
  const money = isMoneyEntry('le');
  // Only the facility's renters' entries, when one is chosen (renters below keeps the scope either way).
  const renterOf = (customer: FragmentSqlToken) =>
    facilityId ? sql.fragment`AND ${customer} IN (SELECT id FROM customers WHERE facility_id = ${facilityId})` : sql.fragment``;
  return pool.one(sql.type(LedgerMoneyRow)`
    WITH taken AS (
      SELECT
        coalesce(-sum(le.amount) FILTER (WHERE le.entry_date >= ${start} AND le.entry_date <= ${day}), 0)::numeric(20, 2)::text AS revenue,
        coalesce(-sum(le.amount) FILTER (WHERE le.entry_date >= ${monthStart(day, -1)} AND le.entry_date <= ${sameDayLastMonth(day)} AND le.entry_date < ${start}), 0)::numeric(20, 2)::text AS same_days_last_month_revenue
      FROM ledger_entries le
      WHERE ${money} AND ${inFacility(sql.fragment`le.facility_id`, facilityId)} AND le.entry_date >= ${monthStart(day, -1)} AND le.entry_date <= ${day}
    ), since_month_start AS (
      SELECT le.customer_id, sum(le.amount) AS amount, sum(le.amount) FILTER (WHERE le.entry_date > ${day}) AS after_day
      FROM ledger_entries le WHERE le.entry_date >= ${start} ${renterOf(sql.fragment`le.customer_id`)}
      GROUP BY le.customer_id
    ), not_yet_due AS (
      -- The invoices not yet due (an index range), each one's entries by its index.
      SELECT le.customer_id, sum(le.amount) AS amount
      FROM invoices i
      CROSS JOIN LATERAL (
        SELECT le.customer_id, sum(le.amount) AS amount FROM ledger_entries le
        WHERE le.invoice_id = i.id AND le.kind IN ('charge', 'late_fee', 'void') AND le.entry_date <= ${day}
        GROUP BY le.customer_id
      ) le
      WHERE i.due_date >= ${day} ${renterOf(sql.fragment`i.customer_id`)}
      GROUP BY le.customer_id
    ), renters AS (
      SELECT b.balance - coalesce(m.after_day, 0) AS balance,
             b.balance - coalesce(m.amount, 0) AS balance_last_month_end,
             coalesce(n.amount, 0) AS not_yet_due
      FROM customer_balances b
      JOIN customers c ON c.id = b.customer_id
      LEFT JOIN since_month_start m ON m.customer_id = b.customer_id
      LEFT JOIN not_yet_due n ON n.customer_id = b.customer_id
      WHERE ${inFacility(sql.fragment`c.facility_id`, facilityId)}
    ), owed AS (
      SELECT coalesce(sum(greatest(balance, 0)), 0)::numeric(20, 2)::text AS outstanding,
             coalesce(sum(greatest(coalesce(balance_last_month_end, 0), 0)), 0)::numeric(20, 2)::text AS outstanding_last_month_end,
             coalesce(sum(greatest(least(balance, balance - not_yet_due), 0)), 0)::numeric(20, 2)::text AS overdue
      FROM renters
    )
    SELECT taken.*, owed.*,
           EXISTS (SELECT 1 FROM ledger_entries le WHERE ${inFacility(sql.fragment`le.facility_id`, facilityId)} AND le.entry_date < ${start}) AS has_earlier_months
    FROM taken, owed`);
}

/**
 * Units and occupied units per building of the scope at the end of `day`: today's counts less the
 * building's changes after `day`. A building whose units were all added after `day` is left out.
 */
async function buildingOccupancy(pool: DatabasePool, facilityId: string | undefined, day: string): Promise<BuildingOccupancy[]> {
  const rows = await pool.any(sql.type(BuildingRow)`
    WITH today_counts AS (
      SELECT facility_id, building, count(*)::int8 AS total, count(*) FILTER (WHERE status = 'occupied')::int8 AS occupied
      FROM units WHERE ${inFacility(sql.fragment`facility_id`, facilityId)}
      GROUP BY facility_id, building
    ), changes_since AS (
      SELECT facility_id, building, sum(units_change)::int8 AS units, sum(occupied_units_change)::int8 AS occupied
      FROM metrics_building_daily WHERE ${inFacility(sql.fragment`facility_id`, facilityId)} AND day > ${day}
      GROUP BY facility_id, building
    )
    SELECT b.building, b.facility_id::text, f.name AS facility_name, b.total, b.occupied
    FROM (
      SELECT n.facility_id, n.building, n.total - coalesce(s.units, 0) AS total, n.occupied - coalesce(s.occupied, 0) AS occupied
      FROM today_counts n LEFT JOIN changes_since s ON s.facility_id IS NOT DISTINCT FROM n.facility_id AND s.building = n.building
    ) b LEFT JOIN facilities f ON f.id = b.facility_id
    WHERE b.total > 0
    ORDER BY f.name NULLS LAST, b.building`);
  return rows.map((r) => ({ building: r.building, facilityId: r.facility_id, facilityName: r.facility_name, occupied: r.occupied, total: r.total }));
}

/**
 * The flows and net changes of the scope in `day`'s month up to `day`, and the net changes after
 * `day` (none when it is today). The money comes from the ledger (ledgerMoney).
 */
async function monthToDay(pool: DatabasePool, facilityId: string | undefined, day: string) {
  const start = monthStart(day);
  const lastMonthStart = monthStart(day, -1);
  const scope = inFacility(sql.fragment`facility_id`, facilityId);
  const inMonth = sql.fragment`day >= ${start} AND day <= ${day}`;
  const after = sql.fragment`day > ${day}`;
  return pool.one(sql.type(MonthToDayRow)`
    SELECT
      coalesce(sum(customers_added) FILTER (WHERE ${inMonth}), 0)::int8 AS customers_added,
      coalesce(sum(units_change) FILTER (WHERE ${inMonth}), 0)::int8 AS units_change,
      coalesce(sum(occupied_units_change) FILTER (WHERE ${inMonth}), 0)::int8 AS occupied_units_change,
      coalesce(sum(units_change) FILTER (WHERE ${after}), 0)::int8 AS units_change_since,
      coalesce(sum(occupied_units_change) FILTER (WHERE ${after}), 0)::int8 AS occupied_units_change_since,
      EXISTS (SELECT 1 FROM metrics_daily WHERE ${scope} AND day < ${start}) AS has_earlier_months
    FROM metrics_daily WHERE ${scope} AND day >= ${lastMonthStart}`);
}

/** The metrics as they stood at the end of `day` (today or before): today's stock figures less the changes since. */
export async function dashboardMetrics(pool: DatabasePool, facilityId: string | undefined, day: string): Promise<DashboardMetrics> {
  const [current, activeCustomers, money, buildings, month] = await Promise.all([
    unitCounts(pool, facilityId),
    activeCustomerCount(pool, facilityId, day),
    ledgerMoney(pool, facilityId, day),
    buildingOccupancy(pool, facilityId, day),
    monthToDay(pool, facilityId, day),
  ]);
  const units = { total: current.total - month.units_change_since, occupied: current.occupied - month.occupied_units_change_since };
  const cents = (amount: string) => Number(toCents(amount));
  const rate = occupancyRate(units.occupied, units.total);
  // Last month ended where this month's net changes started from.
  const lastMonthRate = occupancyRate(units.occupied - month.occupied_units_change, units.total - month.units_change);
  const compare = month.has_earlier_months;
  const compareMoney = money.has_earlier_months;
  return {
    totalRevenue: money.revenue,
    occupancyRate: rate ?? 0,
    activeCustomers,
    outstandingBalance: money.outstanding,
    overdueBalance: money.overdue,
    buildingOccupancy: buildings,
    monthOverMonth: {
      revenuePercent: compareMoney ? percentChange(cents(money.revenue), cents(money.same_days_last_month_revenue)) : null,
      occupancyPoints: compare ? pointsChange(rate, lastMonthRate) : null,
      newCustomers: month.customers_added,
      outstandingPercent: compareMoney ? percentChange(cents(money.outstanding), cents(money.outstanding_last_month_end)) : null,
    },
  };
}

const RecentCustomerRow = CustomerRow.extend({ unit_numbers: z.array(z.string()), monthly_rate: z.string().nullable() });

/** The newest customers of the scope, with the units and rent of their active leases. */
export async function recentCustomers(pool: DatabasePool, filter: { facilityId?: string; search?: string }): Promise<RecentCustomer[]> {
  const conditions = [sql.fragment`NOT archived`, inFacility(sql.fragment`facility_id`, filter.facilityId)];
  if (filter.search) {
    // search_text (indexed) holds name, email and phone; the second test keeps the phone out.
    conditions.push(
      sql.fragment`${searchMatches(sql.fragment`search_text`, filter.search)} AND lower(first_name || ' ' || last_name || ' ' || email) LIKE ${containsPattern(filter.search)}`,
    );
  }
  const rows = await pool.any(sql.type(RecentCustomerRow)`
    SELECT c.*, coalesce(l.unit_numbers, '[]'::json) AS unit_numbers, l.monthly_rate
    FROM (
      SELECT ${customerColumns} FROM customers WHERE ${allOf(conditions)}
      ORDER BY created_at DESC, id LIMIT ${RECENT_CUSTOMERS_LIMIT}
    ) c
    LEFT JOIN LATERAL (
      SELECT json_agg(u.unit_number ORDER BY le.start_date, le.id) AS unit_numbers, sum(le.monthly_rate)::text AS monthly_rate
      FROM leases le JOIN units u ON u.id = le.unit_id
      WHERE le.customer_id = c.id::uuid AND le.is_active
    ) l ON true
    ORDER BY c.created_at DESC, c.id`);
  return rows.map((row) => ({ ...toCustomer(row), unitNumbers: row.unit_numbers, monthlyRate: row.monthly_rate }));
}
