import { fromCents } from '@storage/contracts/money';
import { AgingBucket, type ReportsOverview } from '@storage/contracts/reports';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { monthEndFigures, monthStart, monthsUpTo, occupancyRate, oneDecimal } from '../dashboard/month-over-month.ts';
import { inFacility, unitCounts } from '../dashboard/queries.ts';

const REPORT_MONTHS = 12;

const MonthRow = z.object({
  month: z.string(),
  revenue_cents: z.number(),
  payments: z.number(),
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
           sum(revenue_cents)::int8 AS revenue_cents, sum(payments)::int8 AS payments,
           sum(move_ins)::int8 AS move_ins, sum(move_outs)::int8 AS move_outs,
           sum(units_filled)::int8 AS units_filled, sum(vacant_seconds_filled)::int8 AS vacant_seconds_filled,
           sum(units_change)::int8 AS units_change, sum(occupied_units_change)::int8 AS occupied_units_change
    FROM metrics_daily
    WHERE ${inFacility(sql.fragment`facility_id`, facilityId)} AND day >= ${monthStart(today, 1 - REPORT_MONTHS)}
    GROUP BY 1`);
  return new Map(rows.map((row) => [row.month, row]));
}

/** The aging bucket of invoice `i` on `today`: by days past its due date, not yet due counting as 0–30. */
const agingBucketOf = (today: string) => sql.fragment`
  CASE WHEN ${today}::date - i.due_date <= 30 THEN '0-30'
       WHEN ${today}::date - i.due_date <= 60 THEN '31-60'
       WHEN ${today}::date - i.due_date <= 90 THEN '61-90'
       ELSE '90+' END`;

/** Open (sent or overdue) invoices by days past due on `today`. */
async function agingReceivables(pool: DatabasePool, facilityId: string | undefined, today: string) {
  const rows = await pool.any(sql.type(AgingRow)`
    SELECT ${agingBucketOf(today)} AS bucket, sum(i.amount - i.amount_paid)::numeric(12, 2)::text AS amount, count(*)::int8 AS invoices
    FROM invoices i JOIN customers c ON c.id = i.customer_id
    WHERE i.status IN ('sent', 'overdue') AND ${inFacility(sql.fragment`c.facility_id`, facilityId)}
    GROUP BY 1`);
  return AgingBucket.options.map((bucket) => {
    const row = rows.find((r) => r.bucket === bucket);
    return { bucket, amount: row?.amount ?? '0.00', invoices: row?.invoices ?? 0 };
  });
}

/** Of the invoices that fell due in the report's months (sent, overdue or paid), how many are paid. */
async function collection(pool: DatabasePool, facilityId: string | undefined, today: string) {
  return pool.one(sql.type(CollectionRow)`
    SELECT count(*)::int8 AS due, count(*) FILTER (WHERE i.status = 'paid')::int8 AS paid
    FROM invoices i JOIN customers c ON c.id = i.customer_id
    WHERE i.status IN ('sent', 'overdue', 'paid') AND i.due_date >= ${monthStart(today, 1 - REPORT_MONTHS)} AND i.due_date <= ${today}
      AND ${inFacility(sql.fragment`c.facility_id`, facilityId)}`);
}

export async function reportsOverview(pool: DatabasePool, facilityId: string | undefined, today: string): Promise<ReportsOverview> {
  const months = monthsUpTo(today, REPORT_MONTHS);
  const [figures, units, aging, collected] = await Promise.all([
    monthlyFigures(pool, facilityId, today),
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
      revenue: fromCents(BigInt(figures.get(month)?.revenue_cents ?? 0)),
      payments: figures.get(month)?.payments ?? 0,
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

const RentRollRow = z.object({
  facility: z.string().nullable(),
  building: z.string(),
  unit_number: z.string(),
  size: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  start_date: z.string(),
  monthly_rate: z.string(),
  deposit_amount: z.string().nullable(),
  customer_balance: z.string(),
});

/** The active leases of the scope's units, by facility, building and unit. */
export async function rentRoll(pool: DatabasePool, facilityId: string | undefined) {
  return pool.any(sql.type(RentRollRow)`
    SELECT f.name AS facility, u.building, u.unit_number, u.size, c.first_name, c.last_name, c.email, c.phone,
           l.start_date::text, l.monthly_rate::text, l.deposit_amount::text,
           (SELECT coalesce(sum(i.amount - i.amount_paid), 0)::numeric(12, 2)::text FROM invoices i
            WHERE i.customer_id = c.id AND i.status IN ('sent', 'overdue')) AS customer_balance
    FROM leases l JOIN units u ON u.id = l.unit_id JOIN customers c ON c.id = l.customer_id
    LEFT JOIN facilities f ON f.id = u.facility_id
    WHERE l.is_active AND ${inFacility(sql.fragment`u.facility_id`, facilityId)}
    ORDER BY f.name NULLS LAST, u.building, u.unit_number`);
}

const OpenInvoiceRow = z.object({
  invoice_number: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  facility: z.string().nullable(),
  due_date: z.string(),
  days_past_due: z.number(),
  bucket: AgingBucket,
  status: z.string(),
  amount: z.string(),
});

/** The open invoices of the scope, longest past due first. */
export async function openInvoices(pool: DatabasePool, facilityId: string | undefined, today: string) {
  return pool.any(sql.type(OpenInvoiceRow)`
    SELECT i.invoice_number, c.first_name, c.last_name, c.email, f.name AS facility, i.due_date::text,
           greatest(${today}::date - i.due_date, 0)::int8 AS days_past_due,
           ${agingBucketOf(today)} AS bucket, i.status, (i.amount - i.amount_paid)::text AS amount
    FROM invoices i JOIN customers c ON c.id = i.customer_id LEFT JOIN facilities f ON f.id = c.facility_id
    WHERE i.status IN ('sent', 'overdue') AND ${inFacility(sql.fragment`c.facility_id`, facilityId)}
    ORDER BY i.due_date, i.invoice_number`);
}
