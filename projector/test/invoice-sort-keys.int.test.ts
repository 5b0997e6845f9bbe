// Migration 039 on an install from before it: the invoices already there get the customer's
// name and the status's rank the list now sorts by (the projection writes them from then on).

import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { InvoiceStatus } from '@storage/contracts/enums';
import { migrateReadModel } from '@storage/platform/migrate';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const migrationsDir = fileURLToPath(new URL('../../platform/migrations/', import.meta.url));

describe('migration 039 on an install with invoices', () => {
  let database: TestDatabase;
  let client: pg.Client;
  const ada = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase('invoice_sort_keys');
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const file of (await readdir(migrationsDir)).filter((f) => /^\d+_.+\.sql$/.test(f) && f < '039').sort()) {
      await client.query(await readFile(`${migrationsDir}${file}`, 'utf8'));
      await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    }
    await client.query(
      `INSERT INTO customers (id, first_name, last_name, email, status, search_text, created_at, updated_at)
       VALUES ($1, 'Ada', 'Lovelace', 'ada@example.com', 'active', '', now(), now()), ($2, 'Bob', 'Babbage', 'bob@example.com', 'active', '', now(), now())`,
      [ada, bob],
    );
    // One invoice of each status, alternating customers; one whose customer row is missing.
    for (const [i, status] of InvoiceStatus.options.entries())
      await client.query(
        `INSERT INTO invoices (id, invoice_number, customer_id, amount, due_date, status, created_at, updated_at)
         VALUES (gen_random_uuid(), $1, $2, 10.00, '2026-01-01', $3, now(), now())`,
        [`INV-${i}`, i % 2 ? bob : ada, status],
      );
    await client.query(
      `INSERT INTO invoices (id, invoice_number, customer_id, amount, due_date, status, created_at, updated_at)
       VALUES (gen_random_uuid(), 'INV-orphan', $1, 10.00, '2026-01-01', 'sent', now(), now())`,
      [randomUUID()],
    );
    expect(await migrateReadModel(database.url)).toContain('039_invoice_sort_keys.sql');
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it("fills each invoice's customer name and status rank (the place in InvoiceStatus, from 1)", async () => {
    const { rows } = await client.query<{
      invoice_number: string;
      status: string;
      status_rank: number;
      customer_last_name: string;
      customer_first_name: string;
    }>('SELECT invoice_number, status, status_rank, customer_last_name, customer_first_name FROM invoices ORDER BY invoice_number');
    expect(rows).toEqual([
      ...InvoiceStatus.options.map((status, i) => ({
        invoice_number: `INV-${i}`,
        status,
        status_rank: i + 1,
        customer_last_name: i % 2 ? 'Babbage' : 'Lovelace',
        customer_first_name: i % 2 ? 'Bob' : 'Ada',
      })),
      { invoice_number: 'INV-orphan', status: 'sent', status_rank: 2, customer_last_name: '', customer_first_name: '' },
    ]);
  });

  it('leaves no default behind: a writer that forgets the new columns fails rather than sorting wrongly', async () => {
    await expect(
      client.query(
        `INSERT INTO invoices (id, invoice_number, customer_id, amount, due_date, status, created_at, updated_at)
         VALUES (gen_random_uuid(), 'INV-new', $1, 10.00, '2026-01-01', 'draft', now(), now())`,
        [ada],
      ),
    ).rejects.toThrow(/null value in column/);
  });
});
