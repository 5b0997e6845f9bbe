import { AgingBucket, type ReportsOverview } from '@storage/contracts/reports';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { monthEndFigures, monthStart, monthsUpTo, occupancyRate, oneDecimal } from '../dashboard/month-over-month.ts';
import { inFacility, unitCounts } from '../dashboard/queries.ts';
import { isOpenInvoice, openAmount } from '../invoices/open-sql.ts';
import { agingBucketOf } from './aging-sql.ts';

const REPORT_MONTHS = 12;

const MonthRow = z.object({
  month: z.string(),
  move_ins: z.number(),
  move_outs: z.number(),
  units_filled: z.number(),
  vacant_seconds_filled: z.number(),
  units_change: z.number(),
  occupied_units_change: z.number(),
});
const AgingRow = z.object({ bucket: AgingBucket, amount: z.string(), invoices: z.number() });
const CollectionRow = z.object({ due: z.number(), paid: z.number() });

/** The daily figures of the scope summed per month, for the report's months. */
async function monthlyFigures(pool: DatabasePool, facilityId: string | undefined, today: string) {
  const rows = await pool.any(sql.type(MonthRow)`
    SELECT to_char(date_trunc('month', day), 'YYYY-MM') AS month,
           sum(move_ins)::int8 AS move_ins, sum(move_outs)::int8 AS move_outs,
           sum(units_filled)::int8 AS units_filled, sum(vacant_seconds_filled)::int8 AS vacant_seconds_filled,
           sum(units_change)::int8 AS units_change, sum(occupied_units_change)::int8 AS occupied_units_change
    FROM metrics_daily
    WHERE ${inFacility(sql.fragment`facility_id`, facilityId)} AND day >= ${monthStart(today, 1 - REPORT_MONTHS)}
    GROUP BY 1`);
  return new Map(rows.map((row) => [row.month, row]));
}

const RevenueMonthRow = z.object({ month: z.string(), revenue: z.string(), payments: z.number() });

/**
 * Money in per month from the ledger (the facilities' dates), less refunds, as the dashboard's
 * revenue counts it; payments: how many (a desk receipt over several invoices counts once). Kept
 * per facility and for all by the report-totals projection (money_months).
 */
async function ledgerRevenueByMonth(pool: DatabasePool, facilityId: string | undefined, today: string) {
  const rows = await pool.any(sql.type(RevenueMonthRow)`
    SELECT month, revenue::text AS revenue, payments::int8 AS payments
    FROM money_months
    WHERE scope = ${facilityId ?? '*'} AND month >= ${monthStart(today, 1 - REPORT_MONTHS).slice(0, 7)} AND month < ${monthStart(today, 1).slice(0, 7)}`);
  return new Map(rows.map((row) => [row.month, row]));
}

/** Open (sent or overdue) invoices by days past due on `today`. */
async function agingReceivables(pool: DatabasePool, facilityId: string | undefined, today: string) {
  const rows = await pool.any(sql.type(AgingRow)`
    SELECT ${agingBucketOf(sql.fragment`${today}::date - i.due_date`)} AS bucket, sum(${openAmount()})::numeric(20, 2)::text AS amount, count(*)::int8 AS invoices
    FROM invoices i JOIN customers c ON c.id = i.customer_id
    WHERE ${isOpenInvoice()} AND ${inFacility(sql.fragment`c.facility_id`, facilityId)}
    GROUP BY 1`);
  return AgingBucket.options.map((bucket) => {
    const row = rows.find((r) => r.bucket === bucket);
    return { bucket, amount: row?.amount ?? '0.00', invoices: row?.invoices ?? 0 };
  });
}

/** Of the invoices that fell due in the report's months (sent, overdue or paid), how many are paid. */
async function collection(pool: DatabasePool, facilityId: string | undefined, today: string) {
  // A renter counts in their current facility; over all facilities every invoice's renter is in
  // customers (rows are never deleted). Either way an index alone answers (migration 041).
  const renters = facilityId ? sql.fragment`AND i.customer_id IN (SELECT id FROM customers WHERE facility_id = ${facilityId})` : sql.fragment``;
  return pool.one(sql.type(CollectionRow)`
    SELECT count(*)::int8 AS due, count(*) FILTER (WHERE i.status = 'paid')::int8 AS paid
    FROM invoices i
    WHERE i.status IN ('sent', 'overdue', 'paid') AND i.due_date >= ${monthStart(today, 1 - REPORT_MONTHS)} AND i.due_date <= ${today} ${renters}`);
}

export async function reportsOverview(pool: DatabasePool, facilityId: string | undefined, today: string): Promise<ReportsOverview> {
  const months = monthsUpTo(today, REPORT_MONTHS);
  const [figures, revenue, units, aging, collected] = await Promise.all([
    monthlyFigures(pool, facilityId, today),
    ledgerRevenueByMonth(pool, facilityId, today),
    unitCounts(pool, facilityId),
    agingReceivables(pool, facilityId, today),
    collection(pool, facilityId, today),
  ]);
  const perMonth = (pick: (row: z.infer<typeof MonthRow>) => number) => new Map([...figures].map(([month, row]) => [month, pick(row)]));
  const totals = monthEndFigures(
    months,
    units.total,
    perMonth((row) => row.units_change),
  );
  const occupied = monthEndFigures(
    months,
    units.occupied,
    perMonth((row) => row.occupied_units_change),
  );
  const fills = { count: 0, seconds: 0 };
  for (const row of figures.values()) {
    fills.count += row.units_filled;
    fills.seconds += row.vacant_seconds_filled;
  }
  return {
    revenueByMonth: months.map((month) => ({
      month,
      revenue: revenue.get(month)?.revenue ?? '0.00',
      payments: revenue.get(month)?.payments ?? 0,
    })),
    occupancyByMonth: months.map((month, i) => ({
      month,
      occupiedUnits: occupied[i]!,
      totalUnits: totals[i]!,
      occupancyRate: occupancyRate(occupied[i]!, totals[i]!),
      moveIns: figures.get(month)?.move_ins ?? 0,
      moveOuts: figures.get(month)?.move_outs ?? 0,
    })),
    agingReceivables: aging,
    daysToFill: fills.count === 0 ? null : oneDecimal(fills.seconds / fills.count / 86_400),
    unitsFilled: fills.count,
    paymentSuccessRate: collected.due === 0 ? null : oneDecimal((collected.paid / collected.due) * 100),
    invoicesDue: collected.due,
  };
}
