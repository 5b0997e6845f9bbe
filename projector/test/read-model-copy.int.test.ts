import { openCopyingConnection } from '@storage/platform/copy-from';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { type CopyConnection, ReadModelSession } from '@storage/projector/read-model-session';
import type { RowOf } from '@storage/projector/read-model-tables';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// A rebuild's session (fresh: its tables started empty and it is their only writer) writes the
// rows it never wrote before by COPY, and rows it wrote before by the same upsert as the live
// projector. Both must store exactly what the JSON statement stores.

type AuditRow = RowOf<'audit_log'>;

const awkward = 'tab\there, new\nline, return\r, back\\slash, \\N, "quoted", é ✓, \u2028';

function auditRow(n: number, changes: Partial<AuditRow> = {}): AuditRow {
  return {
    position: String(18_446_744_073_709_551_616n * BigInt(n) + 7n),
    event_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    type: 'customer_updated',
    stream_name: n % 2 ? awkward : '',
    facility_id: n % 3 ? null : '00000000-0000-4000-8000-000000000001',
    actor_type: 'staff',
    actor_id: null,
    occurred_at: '2026-11-24T15:20:20.123Z',
    recorded_at: '2026-11-24T15:20:20.456Z',
    schema_version: n,
    data: {
      text: awkward,
      nested: { list: [1, 2.5, -3e-7, true, false, null, awkward], empty: '' },
      big: 12_345_678_901_234_567_890n as unknown as string,
      n,
    },
    ...changes,
  };
}

const StoredRow = z.object({ row: z.record(z.string(), z.unknown()) });

describe('a fresh read-model session writes new rows by COPY', () => {
  let database: TestDatabase;
  let pool: DatabasePool;

  beforeAll(async () => {
    database = await createTestDatabase('read_model_copy');
    await migrateReadModel(database.url);
    pool = await createDatabasePool(database.url);
    for (const schema of ['copied', 'upserted']) {
      await pool.query(sql.unsafe`CREATE SCHEMA ${sql.identifier([schema])}`);
      await pool.query(sql.unsafe`CREATE TABLE ${sql.identifier([schema, 'audit_log'])} (LIKE public.audit_log INCLUDING ALL)`);
    }
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  const stored = (schema: string) =>
    pool.anyFirst(sql.type(StoredRow)`SELECT to_jsonb(a) AS row FROM ${sql.identifier([schema, 'audit_log'])} a ORDER BY position`);

  /** Writes `batches` of rows through one session, each batch's writes taken and stored before the next. */
  async function write(schema: string, fresh: boolean, batches: AuditRow[][], how: 'insert' | 'append' = 'insert'): Promise<void> {
    const copier = await openCopyingConnection(database.url, [`SET search_path TO ${schema}, public`]);
    try {
      await pool.connect(async (connection) => {
        await connection.query(sql.unsafe`SET search_path TO ${sql.identifier([schema])}, public`);
        const target: CopyConnection = { query: (query) => connection.query(query), copy: (statement, rows) => copier.copy(statement, rows) };
        const session = new ReadModelSession(connection, { fresh });
        const rows = session.for({ name: 'audit-log', tables: ['audit_log'] });
        for (const batch of batches) {
          for (const row of batch) {
            if (how === 'insert') rows.insert('audit_log', row);
            else await rows.append('audit_log', row);
          }
          await (await session.takeWrites()).writeTo(target);
        }
        await connection.query(sql.unsafe`RESET search_path`);
      });
    } finally {
      await copier.end();
    }
  }

  it('stores every value (text that COPY escapes, nulls, empty text, JSON, big integers) as the JSON statement does', async () => {
    const rows = [1, 2, 3, 4, 5, 6].map((n) => auditRow(n));
    await write('copied', true, [rows]);
    await write('upserted', false, [rows]);
    const copied = await stored('copied');
    expect(copied).toHaveLength(6);
    expect(copied).toEqual(await stored('upserted'));
    expect(copied[0]).toMatchObject({ stream_name: awkward, actor_id: null, data: { text: awkward, big: '12345678901234567890' } });
    expect(copied[1]).toMatchObject({ stream_name: '' });
  });

  it('writes a row it wrote before by the upsert: a later batch changes it rather than failing on its key', async () => {
    await pool.query(sql.unsafe`TRUNCATE copied.audit_log`);
    await write('copied', true, [
      [auditRow(1), auditRow(2)],
      [auditRow(2, { type: 'customer_archived' }), auditRow(3)],
    ]);
    const copied = await stored('copied');
    expect(copied.map((row) => [row.schema_version, row.type])).toEqual([
      [1, 'customer_updated'],
      [2, 'customer_archived'],
      [3, 'customer_updated'],
    ]);
  });

  it('stores appended rows as inserted ones, fresh (COPY) or not (the upsert), and holds none of them', async () => {
    const batches = [[1, 2, 3].map((n) => auditRow(n)), [4, 5, 6].map((n) => auditRow(n))];
    for (const schema of ['copied', 'upserted']) await pool.query(sql.unsafe`TRUNCATE ${sql.identifier([schema, 'audit_log'])}`);
    await write('copied', true, batches, 'append');
    await write('upserted', false, batches, 'append');
    const appended = await stored('copied');
    expect(appended).toHaveLength(6);
    expect(appended).toEqual(await stored('upserted'));
    await pool.query(sql.unsafe`TRUNCATE copied.audit_log`);
    await write('copied', true, batches);
    expect(await stored('copied')).toEqual(appended);
    await pool.connect(async (connection) => {
      const session = new ReadModelSession(connection, { fresh: true });
      const rows = session.for({ name: 'audit-log', tables: ['audit_log'] });
      await rows.append('audit_log', auditRow(7));
      expect(session.cachedRows).toBe(0);
      await expect(rows.get('audit_log', auditRow(7).position)).rejects.toThrow(/audit_log is appended to/);
      expect(() => rows.insert('audit_log', auditRow(8))).toThrow(/audit_log is appended to/);
      await expect(session.for({ name: 'units', tables: ['units'] }).append('audit_log', auditRow(8))).rejects.toThrow(/does not own/);
      expect(() => session.forget()).toThrow(/holds changes not yet taken/);
      expect((await session.takeWrites()).size).toBe(1);
      session.forget();
    });
  });

  it('refuses to write its new rows where COPY cannot go', async () => {
    await pool.connect(async (connection) => {
      const session = new ReadModelSession(connection, { fresh: true });
      session.for({ name: 'audit-log', tables: ['audit_log'] }).insert('audit_log', auditRow(9));
      await expect((await session.takeWrites()).writeTo(connection)).rejects.toThrow(/writing audit_log failed: new rows of a fresh session are copied/);
    });
  });
});
