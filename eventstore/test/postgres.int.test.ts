import { randomUUID } from 'node:crypto';
import { describeEventStoreConformance } from '@storage/eventstore/conformance';
import { connectEventStore } from '@storage/eventstore/connect';
import { appendWithinTransaction, createPostgresEventStore } from '@storage/eventstore/postgres';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase('eventstore');
});

afterAll(async () => {
  await database?.drop();
});

describeEventStoreConformance('postgres', async () => {
  const pool = new pg.Pool({ connectionString: database.url });
  const store = await createPostgresEventStore({ pool });
  await store.migrate();
  return {
    store,
    async cleanup() {
      await store.close();
      await pool.end();
    },
    async holdOpenAppend(stream, events) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await appendWithinTransaction(client, stream, events, 'no_stream');
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
      const end = async (sql: 'COMMIT' | 'ROLLBACK') => {
        try {
          await client.query(sql);
        } finally {
          client.release();
        }
      };
      return { commit: () => end('COMMIT'), rollback: () => end('ROLLBACK') };
    },
  };
});

describe('postgres event store', () => {
  let pool: pg.Pool;

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: database.url });
  });

  afterAll(async () => {
    await pool?.end();
  });

  it('migrates idempotently, also when several processes start at once', async () => {
    const stores = await Promise.all([1, 2, 3].map(() => createPostgresEventStore({ pool })));

    await Promise.all(stores.map((s) => s.migrate()));
    await stores[0]!.migrate();

    const tables = await pool.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'event_store' ORDER BY table_name",
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(['events', 'streams']);
  });

  it('connectEventStore without an EventStoreDB URL migrates and uses Postgres', async () => {
    const store = await connectEventStore({ databaseUrl: database.url });
    const stream = `connect-${randomUUID()}`;

    await store.append(stream, [event()], { expectedRevision: 'no_stream' });

    expect(store.kind).toBe('postgres');
    expect(await store.readStream(stream)).toHaveLength(1);
    await store.close();
  });

  it('the database refuses to update, delete or truncate events', async () => {
    const store = await connectEventStore({ databaseUrl: database.url });
    const stream = `append-only-${randomUUID()}`;
    await store.append(stream, [event()], { expectedRevision: 'no_stream' });

    await expect(pool.query(`UPDATE event_store.events SET type = 'tampered' WHERE stream_name = $1`, [stream])).rejects.toThrow(/append-only: UPDATE/);
    await expect(pool.query('DELETE FROM event_store.events WHERE stream_name = $1', [stream])).rejects.toThrow(/append-only: DELETE/);
    await expect(pool.query('DELETE FROM event_store.events WHERE false')).rejects.toThrow(/append-only: DELETE/);
    await expect(pool.query('TRUNCATE event_store.events CASCADE')).rejects.toThrow(/append-only: TRUNCATE/);
    expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['tested']);
  });

  it('headPosition is null until the first event is visible', async () => {
    const empty = await createTestDatabase('eventstore_empty');
    const store = await createPostgresEventStore({ connectionString: empty.url });
    try {
      await store.migrate();
      expect(await store.headPosition()).toBeNull();
      expect(await store.readAll({ limit: 10 })).toEqual([]);
      expect(await store.readAllBackwards({ limit: 10 })).toEqual([]);

      const result = await store.append(`first-${randomUUID()}`, [event()], { expectedRevision: 'no_stream' });

      expect(result.position.hi).toBeGreaterThan(0n);
      expect(result.position.lo).toBe(1n);
    } finally {
      await store.close();
      await empty.drop();
    }
  });

  it('appends in one statement, and still appends (and refuses a wrong revision) on a schema not migrated since the function came', async () => {
    const older = await createTestDatabase('eventstore_older');
    const store = await createPostgresEventStore({ connectionString: older.url });
    const admin = new pg.Client({ connectionString: older.url });
    await admin.connect();
    try {
      await store.migrate();
      const stream = `one-statement-${randomUUID()}`;
      expect((await store.append(stream, [event(), event()], { expectedRevision: 'no_stream' })).nextRevision).toBe(1n);
      await admin.query('DROP FUNCTION event_store.append_events(text, text, jsonb)');
      expect((await store.append(stream, [event()], { expectedRevision: 1n })).nextRevision).toBe(2n);
      await expect(store.append(stream, [event()], { expectedRevision: 1n })).rejects.toThrow(/is at 2, expected 1/);
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
    } finally {
      await admin.end();
      await store.close();
      await older.drop();
    }
  });
});

function event() {
  return {
    id: randomUUID(),
    type: 'tested',
    data: {},
    metadata: {
      actor: { type: 'system' as const },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
      occurredAt: new Date().toISOString(),
    },
  };
}
