import { randomUUID } from 'node:crypto';
import { creditAccount } from '@storage/domain/accounts/commands';
import type { CommandContext } from '@storage/domain/commands/handle';
import { refundAccountCredit, refundPayment } from '@storage/domain/payments/refunds';
import { createTestProvider } from '@storage/platform/payments/test-provider';
import { readModelProjections } from '@storage/projector/projections';
import { rebuildReadModel } from '@storage/projector/rebuild';
import { verifyReadModel } from '@storage/projector/verify';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The ledger is a projection like the others: a replay of the demo history writes it again row for
// row, and what it says each renter owes is what their open invoices say.

describe('the ledger projection', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ seedDemo: true });
  });
  afterAll(async () => {
    await platform?.close();
  });

  const Balance = z.object({ customer_id: z.string(), ledger: z.string(), open: z.string() });
  /**
   * Per renter: the ledger's balance, and what is still open on their sent and overdue invoices (a
   * part may be paid) less the credit on their account (cash paid over an invoice, kept until the
   * next one: the demo's cash payers round up, so some renters hold credit on some days).
   */
  const balances = () =>
    platform.api.pool.any(sql.type(Balance)`
      SELECT c.id::text AS customer_id,
             coalesce((SELECT sum(amount) FROM ledger_entries l WHERE l.customer_id = c.id), 0)::numeric(20, 2)::text AS ledger,
             (coalesce((SELECT sum(i.amount - coalesce((SELECT sum(p.amount) FROM payments p WHERE p.invoice_id = i.id), 0))
                        FROM invoices i WHERE i.customer_id = c.id AND i.status IN ('sent', 'overdue')), 0)
              - c.credit_balance)::numeric(20, 2)::text AS open
      FROM customers c ORDER BY c.id`);

  it('owes, per renter, what is still open on their invoices (some of them partly paid) less the credit on their account', async () => {
    const rows = await balances();
    expect(rows.length).toBeGreaterThan(10);
    expect(await platform.api.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM ledger_entries`)).toBeGreaterThan(50);
    expect(rows.filter((r) => r.ledger !== r.open)).toEqual([]);
  });

  it("keeps each payment's method (the payments-by-method report reads it), and none on a charge", async () => {
    const Entry = z.object({ kind: z.string(), method: z.string().nullable(), paid_with: z.string().nullable() });
    const entries = await platform.api.pool.any(sql.type(Entry)`
      SELECT l.kind, l.method,
             (SELECT string_agg(DISTINCT p.method, ',') FROM payments p WHERE p.invoice_id = l.invoice_id AND p.amount = -l.amount AND p.method <> 'account_credit') AS paid_with
      FROM ledger_entries l WHERE l.kind IN ('payment', 'charge')`);
    const payments = entries.filter((e) => e.kind === 'payment');
    expect(payments.length).toBeGreaterThan(10);
    expect(payments.filter((e) => e.method === null || e.method !== e.paid_with)).toEqual([]);
    expect(entries.filter((e) => e.kind === 'charge' && e.method !== null)).toEqual([]);
  });

  it('verifies equal to a replay, and a rebuild writes the same entries', async () => {
    const { pool, store } = platform.api;
    const before = await pool.any(sql.unsafe`SELECT * FROM ledger_entries ORDER BY id`);
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
    await rebuildReadModel(pool, store, readModelProjections);
    expect(await pool.any(sql.unsafe`SELECT * FROM ledger_entries ORDER BY id`)).toEqual(before);
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
  });

  it('writes a refund of a payment and of credit as refund entries that raise what the renter owes, and a rebuild writes them again', async () => {
    const { pool, store } = platform.api;
    const ctx = (): CommandContext => ({ store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
    const Paid = z.object({ payment_id: z.string(), customer_id: z.string(), invoice_id: z.string(), invoice_number: z.string() });
    const paid = await pool.one(sql.type(Paid)`
      SELECT p.id::text AS payment_id, p.customer_id::text, i.id::text AS invoice_id, i.invoice_number
      FROM payments p JOIN invoices i ON i.id = p.invoice_id
      WHERE i.status = 'paid' AND p.status = 'completed' AND p.method <> 'account_credit' AND p.stripe_payment_intent_id IS NULL AND p.amount >= 20
      ORDER BY p.id LIMIT 1`);
    const ledgerOf = (customerId: string) =>
      pool.any(sql.type(z.object({ kind: z.string(), amount: z.string(), description: z.string() }))`
        SELECT kind, amount::text, description FROM ledger_entries WHERE customer_id = ${customerId} ORDER BY entry_date, position`);
    const before = await ledgerOf(paid.customer_id);

    const refunded = await refundPayment(ctx(), pool, createTestProvider(pool), paid.payment_id, { amount: '12.34', reason: 'Overcharged' });
    const credited = await creditAccount(ctx(), paid.customer_id, { creditId: randomUUID(), amount: '50.00', reason: 'Goodwill', receiptId: null });
    const back = await refundAccountCredit(ctx(), paid.customer_id, { amount: '7.00', method: 'cash', reference: null, reason: 'Asked for it back' });
    for (const position of [refunded.position, credited.position, back.position])
      if (position) expect(await platform.api.afterAppend(position, 15_000)).toBe(true);

    const after = await ledgerOf(paid.customer_id);
    const added = after.filter((row) => !before.some((b) => b.description === row.description && b.amount === row.amount && b.kind === row.kind));
    expect(added).toEqual(
      expect.arrayContaining([
        { kind: 'refund', amount: '12.34', description: expect.stringMatching(new RegExp(`^Refund — .+, invoice ${paid.invoice_number}: Overcharged$`)) },
        { kind: 'refund', amount: '7.00', description: 'Refund of credit — cash: Asked for it back' },
      ]),
    );
    // What the ledger says the renter owes is what their invoices leave open, less their credit.
    const Owed = z.object({ ledger: z.string(), owed: z.string() });
    const owed = await pool.one(sql.type(Owed)`
      SELECT coalesce((SELECT sum(amount) FROM ledger_entries WHERE customer_id = ${paid.customer_id}), 0)::numeric(20, 2)::text AS ledger,
             (coalesce((SELECT sum(amount - amount_paid) FROM invoices WHERE customer_id = ${paid.customer_id} AND status IN ('sent', 'overdue')), 0)
              - (SELECT credit_balance FROM customers WHERE id = ${paid.customer_id}))::numeric(20, 2)::text AS owed`);
    expect(owed.ledger).toBe(owed.owed);

    const entries = await pool.any(sql.unsafe`SELECT * FROM ledger_entries ORDER BY id`);
    const payments = await pool.any(sql.unsafe`SELECT * FROM payments ORDER BY id`);
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
    await rebuildReadModel(pool, store, readModelProjections);
    expect(await pool.any(sql.unsafe`SELECT * FROM ledger_entries ORDER BY id`)).toEqual(entries);
    expect(await pool.any(sql.unsafe`SELECT * FROM payments ORDER BY id`)).toEqual(payments);
  });
});
