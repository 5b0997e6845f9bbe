import { randomUUID } from 'node:crypto';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { checkBooks } from '@storage/projector/books';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The books' checks find what breaks them: each invariant, broken on purpose in read tables that
// otherwise hold, is reported with its rule and whom it is about; the books that hold report nothing.

describe('the books check', () => {
  let database: TestDatabase;
  let pool: DatabasePool;

  beforeAll(async () => {
    database = await createTestDatabase('books');
    await migrateReadModel(database.url);
    pool = await createDatabasePool(database.url);
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  const renter = async (name: string, credit = '0.00') => {
    const id = randomUUID();
    await pool.query(sql.unsafe`
      INSERT INTO customers (id, first_name, last_name, email, status, search_text, created_at, updated_at, credit_balance)
      VALUES (${id}, ${name}, 'Books', ${`${name.toLowerCase()}-${id.slice(0, 8)}@example.com`}, 'active', '', now(), now(), ${credit})`);
    return id;
  };
  const invoice = async (customerId: string, status: string, amount: string, paid: string) => {
    const id = randomUUID();
    await pool.query(sql.unsafe`
      INSERT INTO invoices (id, invoice_number, customer_id, amount, amount_paid, due_date, status, status_rank, customer_last_name, customer_first_name, created_at, updated_at)
      VALUES (${id}, ${`INV-${id.slice(0, 8)}`}, ${customerId}, ${amount}, ${paid}, '2026-01-01', ${status}, 0, 'Books', 'X', now(), now())`);
    return id;
  };
  const ledger = async (customerId: string, amount: string, kind = 'charge', invoiceId: string | null = null) => {
    await pool.query(sql.unsafe`
      INSERT INTO ledger_entries (id, customer_id, entry_date, recorded_at, kind, description, amount, position, invoice_id)
      VALUES (${randomUUID()}, ${customerId}, '2026-01-01', now(), ${kind}, 'Rent', ${amount}, 1, ${invoiceId})`);
  };
  const payment = async (customerId: string, invoiceId: string, amount: string, method: string) => {
    await pool.query(sql.unsafe`
      INSERT INTO payments (id, customer_id, invoice_id, amount, method, status, created_at)
      VALUES (${randomUUID()}, ${customerId}, ${invoiceId}, ${amount}, ${method}, 'completed', now())`);
  };

  it('reports nothing for books that hold, and each break with its rule and whom it is about', async () => {
    const owing = await renter('Owing');
    const partlyPaid = await invoice(owing, 'sent', '120.00', '20.00');
    await payment(owing, partlyPaid, '20.00', 'cash');
    await ledger(owing, '120.00', 'charge', partlyPaid);
    await ledger(owing, '-20.00', 'payment', partlyPaid);
    await pool.query(sql.unsafe`INSERT INTO customer_balances (customer_id, balance) VALUES (${owing}, '100.00')`);
    // Paid with credit given earlier: the ledger has the credit, and no entry of the credit it took.
    const paidWithCredit = await invoice(owing, 'paid', '50.00', '50.00');
    await payment(owing, paidWithCredit, '50.00', 'account_credit');
    await ledger(owing, '-50.00', 'credit');
    await ledger(owing, '50.00', 'charge', paidWithCredit);
    expect(await checkBooks(pool)).toEqual([]);

    // Credit on the account that the ledger never saw; a paid invoice without payments; an occupied unit no lease holds.
    const credited = await renter('Credited', '15.00');
    const paid = await invoice(credited, 'paid', '40.00', '40.00');
    await ledger(credited, '40.00', 'charge', paid);
    await pool.query(sql.unsafe`INSERT INTO customer_balances (customer_id, balance) VALUES (${credited}, '40.00')`);
    const unitId = randomUUID();
    await pool.query(sql.unsafe`
      INSERT INTO units (id, unit_number, building, size, monthly_rate, status, created_at, updated_at)
      VALUES (${unitId}, 'B-1', 'Books', '10x10', '100.00', 'occupied', now(), now())`);
    const breaks = await checkBooks(pool);
    expect(breaks.map((b) => [b.rule, b.subject])).toEqual([
      ['ledger-balance', `Credited Books (${credited})`],
      ['invoice-payments', expect.stringContaining(paid)],
      // Charged 40.00 and never paid by its history, while it says paid.
      ['invoice-history', expect.stringContaining(paid)],
      ['unit-occupancy', `unit B-1 (${unitId})`],
    ]);
    expect(breaks[2]!.detail).toBe('paid, owes 0.00, by its history 40.00');
    expect(breaks[0]!.detail).toBe('ledger 40.00, open invoices 0.00 less credit 15.00');
  });
});
