import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';

// The peers of the dashboard's and the reports' cases in bench:reads: how the answers were summed
// per request before the report-totals projection kept them (every renter's ledger, every
// lease's invoice lines, every money entry of the year), run on the same pool in the same run.
// Only the statements that changed are here; the rest of each answer was and is the same.

const scope = (column: FragmentSqlToken, facilityId: string | undefined) => (facilityId ? sql.fragment`${column} = ${facilityId}` : sql.fragment`true`);
const money = sql.fragment`(le.kind IN ('payment', 'refund') OR le.method IS NOT NULL OR le.receipt_id IS NOT NULL)`;
const facilityToday = (now: Date) => sql.fragment`(${now.toISOString()}::timestamptz AT TIME ZONE coalesce(f.time_zone, 'UTC'))::date`;
const monthStart = (day: string, offset = 0) => {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month - 1 + offset, 1)).toISOString().slice(0, 10);
};

type Peer = (pool: DatabasePool, facilityId: string | undefined) => Promise<unknown>;

const aging: Peer = (pool, facilityId) => {
  const past = sql.fragment`t.today - i.due_date`;
  return pool.any(sql.unsafe`
    SELECT c.id, c.first_name, c.last_name, c.email, f.name, coalesce(a.current, 0)::numeric(20, 2)::text AS current,
           coalesce(a.days90plus, 0)::numeric(20, 2)::text AS days90plus, (-c.credit_balance)::numeric(20, 2)::text AS credit,
           coalesce(b.balance, 0)::numeric(20, 2)::text AS balance
    FROM customers c LEFT JOIN facilities f ON f.id = c.facility_id
    CROSS JOIN LATERAL (SELECT ${facilityToday(new Date())} AS today) t
    LEFT JOIN LATERAL (SELECT sum(le.amount) AS balance FROM ledger_entries le WHERE le.customer_id = c.id) b ON true
    LEFT JOIN LATERAL (
      SELECT sum(i.amount - i.amount_paid) FILTER (WHERE ${past} <= 0) AS current,
             sum(i.amount - i.amount_paid) FILTER (WHERE ${past} > 90) AS days90plus, count(*) AS open_invoices
      FROM invoices i WHERE i.customer_id = c.id AND i.status IN ('sent', 'overdue') AND i.amount <> i.amount_paid) a ON true
    WHERE ${scope(sql.fragment`c.facility_id`, facilityId)} AND (coalesce(b.balance, 0) <> 0 OR a.open_invoices > 0 OR c.credit_balance <> 0)
    ORDER BY coalesce(b.balance, 0) DESC, c.last_name, c.first_name, c.id`);
};

const revenueByChargeType: Peer = async (pool, facilityId) => {
  const to = new Date().toISOString().slice(0, 10);
  const first = monthStart(to, -11);
  const afterLast = monthStart(to, 1);
  const inScope = scope(sql.fragment`ch.facility_id`, facilityId);
  await pool.any(sql.unsafe`
    WITH charges AS (
      SELECT le.invoice_id, le.entry_date, le.facility_id,
             row_number() OVER (PARTITION BY le.invoice_id ORDER BY le.position, le.id) AS n, count(*) OVER (PARTITION BY le.invoice_id) AS entries
      FROM ledger_entries le
      WHERE le.kind IN ('charge', 'late_fee') AND le.invoice_id IN (
        SELECT invoice_id FROM ledger_entries WHERE kind IN ('charge', 'late_fee') AND entry_date >= ${first}::date AND entry_date < ${afterLast}::date))
    SELECT to_char(ch.entry_date, 'YYYY-MM') AS month, x.line->>'kind' AS kind, sum((x.line->>'amount')::numeric)::numeric(20, 2)::text AS amount
    FROM invoices i CROSS JOIN jsonb_array_elements(i.lines) WITH ORDINALITY AS x(line, ord)
    JOIN charges ch ON ch.invoice_id = i.id AND ch.n = greatest(1, x.ord - (jsonb_array_length(i.lines) - ch.entries))
    WHERE ch.entry_date >= ${first}::date AND ch.entry_date < ${afterLast}::date AND ${inScope}
    GROUP BY 1, 2`);
  return pool.any(sql.unsafe`
    SELECT to_char(ch.entry_date, 'YYYY-MM') AS month, coalesce(sum(ch.amount) FILTER (WHERE ch.kind = 'void'), 0)::numeric(20, 2)::text AS voided
    FROM ledger_entries ch
    WHERE ch.kind IN ('void', 'write_off') AND ch.entry_date >= ${first}::date AND ch.entry_date < ${afterLast}::date AND ${inScope}
    GROUP BY 1`);
};

const overview: Peer = async (pool, facilityId) => {
  const today = new Date().toISOString().slice(0, 10);
  await pool.any(sql.unsafe`
    SELECT to_char(le.entry_date, 'YYYY-MM') AS month, (-sum(le.amount))::numeric(20, 2)::text AS revenue,
           count(DISTINCT coalesce(le.receipt_id, le.id)) FILTER (WHERE le.kind <> 'refund')::int8 AS payments
    FROM ledger_entries le
    WHERE ${money} AND ${scope(sql.fragment`le.facility_id`, facilityId)} AND le.entry_date >= ${monthStart(today, -11)} AND le.entry_date < ${monthStart(today, 1)}
    GROUP BY 1`);
  return pool.one(sql.unsafe`
    SELECT count(*)::int8 AS due, count(*) FILTER (WHERE i.status = 'paid')::int8 AS paid
    FROM invoices i JOIN customers c ON c.id = i.customer_id
    WHERE i.status IN ('sent', 'overdue', 'paid') AND i.due_date >= ${monthStart(today, -11)} AND i.due_date <= ${today}
      AND ${scope(sql.fragment`c.facility_id`, facilityId)}`);
};

const dashboardMoney: Peer = (pool, facilityId) => {
  const day = new Date().toISOString().slice(0, 10);
  const start = monthStart(day);
  return pool.one(sql.unsafe`
    WITH renters AS (
      SELECT le.customer_id, sum(le.amount) AS balance, sum(le.amount) FILTER (WHERE le.entry_date < ${start}) AS balance_last_month_end,
             coalesce(sum(le.amount) FILTER (WHERE le.kind IN ('charge', 'late_fee', 'void') AND i.due_date >= ${day}), 0) AS not_yet_due
      FROM ledger_entries le JOIN customers c ON c.id = le.customer_id LEFT JOIN invoices i ON i.id = le.invoice_id
      WHERE le.entry_date <= ${day} AND ${scope(sql.fragment`c.facility_id`, facilityId)}
      GROUP BY le.customer_id)
    SELECT coalesce(sum(greatest(balance, 0)), 0)::numeric(20, 2)::text AS outstanding,
           coalesce(sum(greatest(coalesce(balance_last_month_end, 0), 0)), 0)::numeric(20, 2)::text AS outstanding_last_month_end,
           coalesce(sum(greatest(least(balance, balance - not_yet_due), 0)), 0)::numeric(20, 2)::text AS overdue
    FROM renters`);
};

/** By the API path of the case. */
export const reportPeers: Record<string, Peer> = {
  '/api/reports/aging': aging,
  '/api/reports/revenue-by-charge-type': revenueByChargeType,
  '/api/reports/overview': overview,
  '/api/dashboard/metrics': dashboardMoney,
};
