import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dashboardMetrics } from '@storage/api/dashboard/queries';
import { ledgerAging, ledgerRentRoll, revenueByChargeType } from '@storage/api/reports/ledger-reports';
import { reportsOverview } from '@storage/api/reports/queries';
import type { CommandContext } from '@storage/domain/commands/handle';
import { updateCustomer } from '@storage/domain/customers/commands';
import { addInvoiceLine, cancelInvoice, generateInvoice, sendInvoice, writeOffInvoice } from '@storage/domain/invoices/commands';
import { endLease } from '@storage/domain/leases/commands';
import { recordDeskPayment } from '@storage/domain/payments/desk';
import { refundPayment } from '@storage/domain/payments/refunds';
import type { Position } from '@storage/eventstore/port';
import { createTestProvider } from '@storage/platform/payments/test-provider';
import { readModelProjections } from '@storage/projector/projections';
import { rebuildReadModel } from '@storage/projector/rebuild';
import { verifyReadModel } from '@storage/projector/verify';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import pg from 'pg';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The report totals (customer_balances, lease_rent_periods, charge_type_months) against the sums
// the reports and the dashboard made per request before them: the old SQL lives here, as the
// reference, and nowhere in the product. On the demo history, after each kind of event that moves
// them, after a rebuild, and as migration 042 fills them on an upgrade.

const today = () => new Date().toISOString().slice(0, 10);

describe('the report totals', () => {
  let platform: TestPlatform;
  let facilityId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ seedDemo: true });
    facilityId = await platform.api.pool.oneFirst(sql.type(z.object({ id: z.string() }))`
      SELECT c.facility_id::text AS id FROM ledger_entries le JOIN customers c ON c.id = le.customer_id
      WHERE c.facility_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`);
  });
  afterAll(async () => {
    await platform?.close();
  });

  /** Each renter's balance as the reports summed it: every ledger entry of theirs. */
  const oldBalances = async () => {
    const rows = await platform.api.pool.any(sql.type(z.object({ customer_id: z.string(), balance: z.string() }))`
      SELECT customer_id::text, sum(amount)::numeric(20, 2)::text AS balance FROM ledger_entries GROUP BY 1`);
    return new Map(rows.map((r) => [r.customer_id, r.balance]));
  };

  /** The rent period holding each active lease's facility's today, from its invoices' lines, as the rent roll read it. */
  const oldPeriods = async () => {
    const rows = await platform.api.pool.any(sql.type(
      z.object({ lease_id: z.string(), period_start: z.string().nullable(), period_end: z.string().nullable() }),
    )`
      SELECT l.id::text AS lease_id, p.period_start::text, p.period_end::text
      FROM leases l JOIN units u ON u.id = l.unit_id LEFT JOIN facilities f ON f.id = u.facility_id
      CROSS JOIN LATERAL (SELECT (now() AT TIME ZONE coalesce(f.time_zone, 'UTC'))::date AS today) t
      LEFT JOIN LATERAL (
        SELECT (line->>'periodStart')::date AS period_start, (line->>'periodEnd')::date AS period_end
        FROM invoices i CROSS JOIN jsonb_array_elements(i.lines) AS line
        WHERE i.lease_id = l.id AND i.status NOT IN ('draft', 'cancelled') AND line->>'kind' IN ('rent', 'prorated_rent')
          AND (line->>'periodStart')::date <= t.today AND (line->>'periodEnd')::date >= t.today
        ORDER BY 1 DESC LIMIT 1
      ) p ON true
      WHERE l.is_active`);
    return new Map(rows.map((r) => [r.lease_id, r.period_start && r.period_end ? { start: r.period_start, end: r.period_end } : null]));
  };

  /** Charged per facility, month and line kind (the lines of an invoice at its first charge, each added line at its own), and the reversals. */
  const oldChargeTypes = () =>
    platform.api.pool.any(sql.type(
      z.object({ facility_id: z.string().nullable(), month: z.string(), entry: z.string(), kind: z.string().nullable(), amount: z.string() }),
    )`
      WITH charges AS (
        SELECT le.invoice_id, le.entry_date, le.facility_id,
               row_number() OVER (PARTITION BY le.invoice_id ORDER BY le.position, le.id) AS n,
               count(*) OVER (PARTITION BY le.invoice_id) AS entries
        FROM ledger_entries le WHERE le.kind IN ('charge', 'late_fee')
      ), figures AS (
        SELECT ch.facility_id, to_char(ch.entry_date, 'YYYY-MM') AS month, 'line' AS entry, x.line->>'kind' AS kind, (x.line->>'amount')::numeric AS amount
        FROM invoices i
        CROSS JOIN jsonb_array_elements(i.lines) WITH ORDINALITY AS x(line, ord)
        JOIN charges ch ON ch.invoice_id = i.id AND ch.n = greatest(1, x.ord - (jsonb_array_length(i.lines) - ch.entries))
        UNION ALL
        SELECT facility_id, to_char(entry_date, 'YYYY-MM'), kind, NULL, amount FROM ledger_entries WHERE kind IN ('void', 'write_off')
      )
      SELECT facility_id::text, month, entry, kind, sum(amount)::numeric(20, 2)::text AS amount FROM figures
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`);
  const chargeTypes = () =>
    platform.api.pool.any(sql.type(
      z.object({ facility_id: z.string().nullable(), month: z.string(), entry: z.string(), kind: z.string().nullable(), amount: z.string() }),
    )`
      SELECT facility_id::text, month, entry, line_kind AS kind, amount::text FROM charge_type_months ORDER BY 1, 2, 3, 4`);

  /** The dashboard's balances at the end of `day` as it summed them: every renter's ledger up to the day. */
  const oldOwed = (day: string, monthStart: string, facility: string | undefined) =>
    platform.api.pool.one(sql.type(z.object({ outstanding: z.string(), outstanding_last_month_end: z.string(), overdue: z.string() }))`
      WITH renters AS (
        SELECT le.customer_id,
               sum(le.amount) AS balance,
               sum(le.amount) FILTER (WHERE le.entry_date < ${monthStart}) AS balance_last_month_end,
               coalesce(sum(le.amount) FILTER (WHERE le.kind IN ('charge', 'late_fee', 'void') AND i.due_date >= ${day}), 0) AS not_yet_due
        FROM ledger_entries le
        JOIN customers c ON c.id = le.customer_id
        LEFT JOIN invoices i ON i.id = le.invoice_id
        WHERE le.entry_date <= ${day} AND ${facility ? sql.fragment`c.facility_id = ${facility}` : sql.fragment`true`}
        GROUP BY le.customer_id
      )
      SELECT coalesce(sum(greatest(balance, 0)), 0)::numeric(20, 2)::text AS outstanding,
             coalesce(sum(greatest(coalesce(balance_last_month_end, 0), 0)), 0)::numeric(20, 2)::text AS outstanding_last_month_end,
             coalesce(sum(greatest(least(balance, balance - not_yet_due), 0)), 0)::numeric(20, 2)::text AS overdue
      FROM renters`);

  /** Money in per month of the ledger, and how many payments (a desk receipt once), as the overview summed it. */
  const oldRevenueMonths = async (facility: string | undefined) => {
    const rows = await platform.api.pool.any(sql.type(z.object({ month: z.string(), revenue: z.string(), payments: z.number() }))`
      SELECT to_char(le.entry_date, 'YYYY-MM') AS month, (-sum(le.amount))::numeric(20, 2)::text AS revenue,
             count(DISTINCT coalesce(le.receipt_id, le.id)) FILTER (WHERE le.kind <> 'refund')::int8 AS payments
      FROM ledger_entries le
      WHERE (le.kind IN ('payment', 'refund') OR le.method IS NOT NULL OR le.receipt_id IS NOT NULL)
        AND ${facility ? sql.fragment`le.facility_id = ${facility}` : sql.fragment`true`}
      GROUP BY 1`);
    return new Map(rows.map((r) => [r.month, { revenue: r.revenue, payments: r.payments }]));
  };

  /** Every answer that reads the totals equals the old sums' (today, and days past for the dashboard). */
  async function expectOldAnswers() {
    const { pool } = platform.api;
    const balances = await oldBalances();
    const stored = await pool.any(sql.type(z.object({ customer_id: z.string(), balance: z.string() }))`
      SELECT customer_id::text, balance::text FROM customer_balances`);
    expect(new Map(stored.map((r) => [r.customer_id, r.balance]))).toEqual(balances);

    const now = new Date();
    const periods = await oldPeriods();
    for (const scope of [undefined, facilityId]) {
      const roll = await ledgerRentRoll(pool, { facilityId: scope }, now);
      expect(roll.rows.length).toBeGreaterThan(0);
      for (const row of roll.rows) {
        expect({ lease: row.leaseId, balance: row.balance, period: row.currentPeriod }).toEqual({
          lease: row.leaseId,
          balance: balances.get(row.customerId) ?? '0.00',
          period: periods.get(row.leaseId),
        });
      }
      const aging = await ledgerAging(pool, { facilityId: scope }, now);
      for (const row of aging.rows)
        expect({ customer: row.customerId, balance: row.balance }).toEqual({ customer: row.customerId, balance: balances.get(row.customerId) ?? '0.00' });
    }
    expect([...periods.values()].filter(Boolean).length).toBeGreaterThan(0);

    for (const scope of [undefined, facilityId]) {
      const months = await oldRevenueMonths(scope);
      const overview = await reportsOverview(pool, scope, today());
      expect(overview.revenueByMonth.some((m) => m.payments > 0)).toBe(true);
      for (const m of overview.revenueByMonth) {
        expect({ month: m.month, revenue: m.revenue, payments: m.payments }).toEqual({ month: m.month, revenue: '0.00', payments: 0, ...months.get(m.month) });
      }
    }

    expect(await chargeTypes()).toEqual(await oldChargeTypes());
    const thisMonth = today().slice(0, 7);
    const byType = await revenueByChargeType(pool, { from: `${Number(thisMonth.slice(0, 4)) - 2}${thisMonth.slice(4)}`, to: thisMonth }, now);
    // Sales tax lines are the report's column of their own, not part of what was charged (the demo taxes merchandise at one facility).
    const cents = (rows: Array<{ amount: string }>) => rows.reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0);
    const lines = (await oldChargeTypes()).filter((r) => r.entry === 'line');
    expect(Math.round(Number(byType.totals.charged) * 100)).toBe(cents(lines.filter((r) => r.kind !== 'tax')));
    expect(Math.round(Number(byType.totals.tax) * 100)).toBe(cents(lines.filter((r) => r.kind === 'tax')));

    const days = [today()];
    const ledgerDays = await pool.anyFirst(sql.type(z.object({ day: z.string() }))`
      SELECT DISTINCT entry_date::text AS day FROM ledger_entries ORDER BY 1 DESC LIMIT 40`);
    days.push(...ledgerDays.filter((_, i) => i % 7 === 0));
    for (const day of days) {
      for (const scope of [undefined, facilityId]) {
        const metrics = await dashboardMetrics(pool, scope, day);
        const old = await oldOwed(day, `${day.slice(0, 7)}-01`, scope);
        expect({ day, scope, outstanding: metrics.outstandingBalance, overdue: metrics.overdueBalance }).toEqual({
          day,
          scope,
          outstanding: old.outstanding,
          overdue: old.overdue,
        });
      }
    }
  }

  it('answer the reports and the dashboard as the old sums over the ledger and the invoices did, on the demo history', async () => {
    const { pool } = platform.api;
    expect(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM customer_balances`)).toBeGreaterThan(10);
    await expectOldAnswers();
  });

  it('follow a payment, a refund, a late fee, a void, a write-off, a move-out and a rename; a rebuild writes them again', async () => {
    const { pool, store } = platform.api;
    const ctx = (): CommandContext => ({ store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
    const positions: Array<Position | null> = [];
    const settle = async () => {
      for (const position of positions.splice(0)) if (position) expect(await platform.api.afterAppend(position, 20_000)).toBe(true);
    };
    const Lease = z.object({ lease_id: z.string(), customer_id: z.string() });
    const lease = await pool.one(sql.type(Lease)`
      SELECT l.id::text AS lease_id, l.customer_id::text FROM leases l JOIN customers c ON c.id = l.customer_id
      WHERE l.is_active AND c.facility_id = ${facilityId} ORDER BY l.start_date, l.id LIMIT 1`);
    const balanceOf = async () =>
      pool.oneFirst(sql.type(z.object({ balance: z.string() }))`SELECT balance::text FROM customer_balances WHERE customer_id = ${lease.customer_id}`);
    const before = await balanceOf();

    const invoice = async (amount: string) => {
      const made = await generateInvoice(ctx(), {
        invoiceNumber: `INV-T-${randomUUID().slice(0, 8)}`,
        customerId: lease.customer_id,
        leaseId: null,
        amount,
        dueDate: today(),
        status: 'draft',
        description: 'Totals test',
      });
      if (made.state.status === 'none') throw new Error('no invoice');
      positions.push(made.position, (await sendInvoice(ctx(), made.state.invoiceId)).position);
      return made.state.invoiceId;
    };
    const paidOne = await invoice('40.00');
    const lateOne = await invoice('30.00');
    const voidOne = await invoice('15.00');
    await settle();
    expect(await balanceOf()).toBe((Number(before) + 85).toFixed(2));

    positions.push(
      (await addInvoiceLine(ctx(), lateOne, { kind: 'late_fee', description: 'Late fee', amount: '5.00', periodStart: null, periodEnd: null })).position,
      (await cancelInvoice(ctx(), voidOne, 'Charged by mistake')).position,
      (await writeOffInvoice(ctx(), lateOne, 'Will not pay')).position,
      (await recordDeskPayment(ctx(), { customerId: lease.customer_id, amount: '40.00', method: 'cash', reference: null, invoiceIds: [paidOne] })).position,
    );
    await settle();
    const payment = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`
      SELECT id::text FROM payments WHERE invoice_id = ${paidOne} AND status = 'completed' LIMIT 1`);
    positions.push(
      (await refundPayment(ctx(), pool, createTestProvider(pool), payment, { amount: '12.34', reason: 'Overcharged' })).position,
      (await updateCustomer(ctx(), lease.customer_id, { lastName: 'Renamed' })).position,
      (await endLease(ctx(), lease.lease_id, today())).position,
    );
    await settle();
    // 85.00 charged, 5.00 late fee, 15.00 voided, 35.00 written off, 40.00 paid, 12.34 refunded.
    expect(await balanceOf()).toBe((Number(before) + 85 + 5 - 15 - 35 - 40 + 12.34).toFixed(2));
    const month = today().slice(0, 7);
    const kinds = await pool.any(sql.type(z.object({ entry: z.string(), amount: z.string() }))`
      SELECT entry, sum(amount)::text AS amount FROM charge_type_months WHERE month = ${month} AND facility_id = ${facilityId} AND entry <> 'line' GROUP BY 1 ORDER BY 1`);
    expect(kinds.map((k) => k.entry)).toEqual(['void', 'write_off']);
    const aging = await ledgerAging(pool, { facilityId: facilityId }, new Date());
    expect(aging.rows.find((r) => r.customerId === lease.customer_id)?.customer).toMatch(/ Renamed$/);
    expect((await ledgerRentRoll(pool, { facilityId: facilityId }, new Date())).rows.some((r) => r.leaseId === lease.lease_id)).toBe(false);
    await expectOldAnswers();

    const tables = async () => ({
      balances: await pool.any(sql.unsafe`SELECT * FROM customer_balances ORDER BY customer_id`),
      periods: await pool.any(sql.unsafe`SELECT * FROM lease_rent_periods ORDER BY key`),
      charges: await pool.any(sql.unsafe`SELECT * FROM charge_type_months ORDER BY key`),
      money: await pool.any(sql.unsafe`SELECT * FROM money_months ORDER BY key`),
      receipts: await pool.any(sql.unsafe`SELECT * FROM money_receipt_months ORDER BY key`),
    });
    const live = await tables();
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
    await rebuildReadModel(pool, store, readModelProjections);
    expect(await tables()).toEqual(live);
  });

  it('are filled on an upgrade by migration 042 as the projection wrote them, its checkpoint where the ledger is', async () => {
    const { pool } = platform.api;
    const tables = async () => ({
      balances: await pool.any(sql.unsafe`SELECT * FROM customer_balances ORDER BY customer_id`),
      periods: await pool.any(sql.unsafe`SELECT * FROM lease_rent_periods ORDER BY key`),
      charges: await pool.any(sql.unsafe`SELECT * FROM charge_type_months ORDER BY key`),
      money: await pool.any(sql.unsafe`SELECT * FROM money_months ORDER BY key`),
      receipts: await pool.any(sql.unsafe`SELECT * FROM money_receipt_months ORDER BY key`),
    });
    const Checkpoint = z.object({ hi: z.string().nullable(), lo: z.string().nullable() });
    const checkpointOf = (name: string) =>
      pool.maybeOne(sql.type(Checkpoint)`SELECT position_hi::text AS hi, position_lo::text AS lo FROM projection_checkpoints WHERE name = ${name}`);
    await platform.projector.stop();
    const projected = await tables();
    expect(projected.periods.length).toBeGreaterThan(0);
    expect(projected.charges.length).toBeGreaterThan(0);
    expect(projected.receipts.length).toBeGreaterThan(0);

    // The database as it stood before 041: the tables empty, no checkpoint of the projection.
    await pool.query(sql.unsafe`TRUNCATE customer_balances, lease_rent_periods, charge_type_months, money_months, money_receipt_months`);
    await pool.query(sql.unsafe`DELETE FROM projection_checkpoints WHERE name = 'report-totals'`);
    const client = new pg.Client({ connectionString: platform.database.url });
    await client.connect();
    try {
      await client.query(await readFile(new URL('../../platform/migrations/042_report_totals_fill.sql', import.meta.url), 'utf8'));
    } finally {
      await client.end();
    }
    expect(await tables()).toEqual(projected);
    expect(await checkpointOf('report-totals')).toEqual(await checkpointOf('ledger'));
  });
});
