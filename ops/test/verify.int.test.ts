import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runCli } from './cli.ts';

// `npm run ops -- verify` and `rebuild` against a running product's database.

describe('ops verify and rebuild', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ seedDemo: true });
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('finds no difference on the demo data, reports a tampered row, and a rebuild fixes it', async () => {
    const url = platform.database.url;
    const clean = await runCli(['verify'], url);
    expect(clean.output).toContain('no differences');
    expect(clean.code).toBe(0);

    const { pool } = platform.api;
    const customerId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM customers ORDER BY id LIMIT 1`);
    await pool.query(sql.unsafe`UPDATE customers SET first_name = 'Tampered' WHERE id = ${customerId}`);
    const tampered = await runCli(['verify'], url);
    expect(tampered.output).toContain(`customers (id=${customerId}): first_name: live "Tampered", rebuilt`);
    expect(tampered.output).toContain('1 differences');
    expect(tampered.code).toBe(1);

    const rebuilt = await runCli(['rebuild'], url);
    expect(rebuilt.output).toContain('swapped them in');
    expect(rebuilt.code).toBe(0);
    const after = await runCli(['verify'], url);
    expect(after.output).toContain('no differences');
    expect(after.code).toBe(0);
    // Four CLI processes, each starting Node and the whole TypeScript tree: on a loaded machine
    // (CI with other work running) that alone passed a minute.
  }, 180_000);
});
