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
  /** Per renter: the ledger's balance, and the sum of their sent and overdue invoices. */
  const balances = () =>
    platform.api.pool.any(sql.type(Balance)`
      SELECT c.id::text AS customer_id,
             coalesce((SELECT sum(amount) FROM ledger_entries l WHERE l.customer_id = c.id), 0)::numeric(14, 2)::text AS ledger,
             coalesce((SELECT sum(amount) FROM invoices i WHERE i.customer_id = c.id AND i.status IN ('sent', 'overdue')), 0)::numeric(14, 2)::text AS open
      FROM customers c ORDER BY c.id`);

  it('owes, per renter, what their open invoices add up to (every payment so far pays a whole invoice)', async () => {
    const rows = await balances();
    expect(rows.length).toBeGreaterThan(10);
    expect(await platform.api.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM ledger_entries`)).toBeGreaterThan(50);
    expect(rows.filter((r) => r.ledger !== r.open)).toEqual([]);
  });

  it('verifies equal to a replay, and a rebuild writes the same entries', async () => {
    const { pool, store } = platform.api;
    const before = await pool.any(sql.unsafe`SELECT * FROM ledger_entries ORDER BY id`);
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
    await rebuildReadModel(pool, store, readModelProjections);
    expect(await pool.any(sql.unsafe`SELECT * FROM ledger_entries ORDER BY id`)).toEqual(before);
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
  });
});
