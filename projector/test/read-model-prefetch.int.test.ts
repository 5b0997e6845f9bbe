import type { DatabasePool } from '@storage/platform/db';
import { ReadModelSession } from '@storage/projector/read-model-session';
import { keyColumn, type TableName } from '@storage/projector/read-model-tables';
import { createDemoReadModel, type DemoReadModel } from '@storage/testing/demo-read-model';
import { statementsOf } from '@storage/testing/statements';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// A live batch loads the rows its events name in one statement for every table, as JSON: the rows
// must be, value for value, those SELECT * gives through the pool's type parsers (money exact,
// timestamps as ISO-8601, counts as numbers), on the demo's six months of history.

describe('the rows a batch loads in one statement', () => {
  let demo: DemoReadModel;
  let pool: DatabasePool;

  beforeAll(async () => {
    demo = await createDemoReadModel('read_model_prefetch');
    pool = demo.pool;
  }, 300_000);
  afterAll(async () => {
    await demo?.close();
  });

  it('are those SELECT * gives, for every table, in one statement, and a key with no row is known absent', async () => {
    const tables = Object.keys(keyColumn) as TableName[];
    const keys = new Map<TableName, Set<string>>();
    const expected = new Map<TableName, unknown[]>();
    for (const table of tables) {
      const column = sql.identifier([keyColumn[table]]);
      const some = await pool.anyFirst(
        sql.type(z.object({ key: z.string() }))`SELECT ${column}::text AS key FROM ${sql.identifier([table])} ORDER BY ${column} LIMIT 5`,
      );
      keys.set(table, new Set(some));
      expected.set(table, [...(await pool.any(sql.unsafe`SELECT * FROM ${sql.identifier([table])} WHERE ${column}::text = ANY(${sql.array(some, 'text')})`))]);
    }
    const filled = tables.filter((table) => expected.get(table)!.length > 0);
    // The demo fills most tables, with money, timestamps, JSON, arrays and counters among them.
    expect(filled.length).toBeGreaterThan(20);
    for (const table of ['customers', 'invoices', 'ledger_entries', 'leases', 'activities', 'audit_log'] as TableName[]) expect(filled).toContain(table);
    keys.get('customers')!.add('00000000-0000-4000-8000-000000000000');

    await pool.transaction(async (tx) => {
      const session = new ReadModelSession(tx);
      const { statements } = await statementsOf(() => session.prefetch(keys));
      expect(statements.filter((s) => /^SELECT/i.test(s) && !/pg_attribute/.test(s))).toHaveLength(1);
      for (const table of filled) {
        const rows = await Promise.all(expected.get(table)!.map((row) => session.get(table, String((row as Record<string, unknown>)[keyColumn[table]]))));
        expect({ table, rows }).toEqual({ table, rows: expected.get(table) });
        // Same columns in the same order as SELECT * (the session keys its write layouts by it).
        for (const [i, row] of rows.entries()) expect(Object.keys(row!)).toEqual(Object.keys(expected.get(table)![i]!));
      }
      const { result: absent, statements: after } = await statementsOf(() => session.get('customers', '00000000-0000-4000-8000-000000000000'));
      expect(absent).toBeUndefined();
      expect(after).toEqual([]);
    });
  }, 60_000);

  it("a dry run's copy reads nothing: it notes the rows it does not hold, and changes nothing of the session it copies", async () => {
    const [held, other] = await pool.anyFirst(sql.type(z.object({ id: z.string() }))`SELECT id::text FROM customers ORDER BY id LIMIT 2`);
    await pool.transaction(async (tx) => {
      const session = new ReadModelSession(tx);
      await session.prefetch(new Map([['customers', new Set([held!])]]));
      const original = await session.get('customers', held);
      const { result, statements } = await statementsOf(async () => {
        const dry = session.dryRun();
        const copy = await dry.session.get('customers', held);
        await dry.session.update('customers', held, { first_name: 'Changed in the dry run' });
        const unknown = await dry.session.get('customers', other);
        const unitless = await dry.session.get('units', '00000000-0000-4000-8000-000000000000');
        return { dry, copy, unknown, unitless };
      });
      expect(statements).toEqual([]);
      expect(result.copy).toEqual(original);
      expect(result.unknown).toBeUndefined();
      expect(result.unitless).toBeUndefined();
      expect(result.dry.missed).toEqual(
        new Map([
          ['customers', new Set([other])],
          ['units', new Set(['00000000-0000-4000-8000-000000000000'])],
        ]),
      );
      // The session copied still holds its row as it was, and has nothing to write.
      expect(await session.get('customers', held)).toEqual(original);
      expect((await session.takeWrites()).size).toBe(0);
      // What the dry run noted, the session then loads as it would have.
      await session.prefetch(result.dry.missed);
      expect((await session.get('customers', other))?.id).toBe(other);
    });
  });
});
