import { randomUUID } from 'node:crypto';
import { describeEventStoreConformance } from '@storage/eventstore/conformance';
import { connectEventStore } from '@storage/eventstore/connect';
import { appendWithinTransaction, createPostgresEventStore, LogAheadOfServerError } from '@storage/eventstore/postgres';
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
    async holdTransaction() {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_current_xact_id()');
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
      return {
        append: async (stream, events) => {
          await appendWithinTransaction(client, stream, events, 'no_stream');
        },
        commit: () => end('COMMIT'),
        rollback: () => end('ROLLBACK'),
      };
    },
    async holdTransactionInAnotherDatabase() {
      const other = await createTestDatabase('eventstore_elsewhere');
      const client = new pg.Client({ connectionString: other.url });
      await client.connect();
      await client.query('BEGIN');
      await client.query('SELECT pg_current_xact_id()');
      return {
        async end() {
          await client.query('ROLLBACK');
          await client.end();
          await other.drop();
        },
      };
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

  it('refuses to start on a log whose transaction ids this server has not reached (a pg_dump restored elsewhere), and writes nothing', async () => {
    const restored = await createTestDatabase('eventstore_restored');
    const store = await createPostgresEventStore({ connectionString: restored.url });
    const client = new pg.Client({ connectionString: restored.url });
    await client.connect();
    try {
      await store.migrate();
      // What pg_restore writes: rows with the ids of the server they came from, here far ahead of this one's.
      await client.query(
        `INSERT INTO event_store.streams (name, revision) VALUES ('restored-1', 0);
         INSERT INTO event_store.events (transaction_id, stream_name, revision, id, type, data, metadata)
         VALUES ((pg_snapshot_xmax(pg_current_snapshot())::text::bigint + 1000000)::text::xid8, 'restored-1', 0, gen_random_uuid(), 'tested', '{}', '{}')`,
      );

      const refused = await store.migrate().catch((error: unknown) => error);

      expect(refused).toBeInstanceOf(LogAheadOfServerError);
      expect((refused as Error).message).toMatch(/restored from a logical dump.*pg_resetwal -x \d+/s);
      const count = await client.query<{ n: string }>('SELECT count(*) AS n FROM event_store.events');
      expect(count.rows[0]!.n).toBe('1');
    } finally {
      await client.end();
      await store.close();
      await restored.drop();
    }
  });

  it('starts on a log whose newest transaction is behind the server (the usual case, and an empty log)', async () => {
    const empty = await createTestDatabase('eventstore_behind');
    const store = await createPostgresEventStore({ connectionString: empty.url });
    try {
      await store.migrate();
      await store.migrate();
      await store.append(`behind-${randomUUID()}`, [event()], { expectedRevision: 'no_stream' });

      await expect(store.migrate()).resolves.toBeUndefined();
    } finally {
      await store.close();
      await empty.drop();
    }
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

  it('appends in one statement (one round trip); a refused append takes a second one to say where the stream is', async () => {
    const counted = new pg.Pool({ connectionString: database.url });
    const statements: string[] = [];
    const query = counted.query.bind(counted) as (...args: unknown[]) => Promise<unknown>;
    (counted as { query: unknown }).query = (...args: unknown[]) => {
      const [first] = args;
      statements.push(typeof first === 'string' ? first : (first as { text: string }).text);
      return query(...args);
    };
    const store = await createPostgresEventStore({ pool: counted });
    try {
      const stream = `one-statement-${randomUUID()}`;
      expect((await store.append(stream, [event(), event()], { expectedRevision: 'no_stream' })).nextRevision).toBe(1n);
      expect((await store.append(stream, [event()], { expectedRevision: 1n })).nextRevision).toBe(2n);
      expect(statements).toHaveLength(2);

      await expect(store.append(stream, [event()], { expectedRevision: 1n })).rejects.toThrow(/is at 2, expected 1/);
      expect(statements).toHaveLength(4);
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
    } finally {
      await store.close();
      await counted.end();
    }
  });

  it('migrates a store made before the append was one statement: the JSON indexes and the append function go, the events stay', async () => {
    const older = await createTestDatabase('eventstore_older');
    const store = await createPostgresEventStore({ connectionString: older.url });
    const admin = new pg.Client({ connectionString: older.url });
    await admin.connect();
    try {
      await store.migrate();
      const stream = `older-${randomUUID()}`;
      await store.append(stream, [event(), event()], { expectedRevision: 'no_stream' });
      // What the schema had then, besides what it still has.
      await admin.query(`
        CREATE INDEX events_occurred_at_log_order_idx ON event_store.events ((metadata->>'occurredAt') DESC, transaction_id DESC, global_position DESC);
        CREATE INDEX events_type_idx ON event_store.events (type, (metadata->>'occurredAt') DESC);
        CREATE INDEX events_actor_idx ON event_store.events ((metadata->'actor'->>'id'));
        CREATE FUNCTION event_store.append_events(p_stream text, p_expected text, p_events jsonb) RETURNS void LANGUAGE sql AS 'SELECT';
      `);

      await store.migrate();

      const indexes = await admin.query<{ indexname: string }>(
        "SELECT indexname FROM pg_indexes WHERE schemaname = 'event_store' AND tablename = 'events' ORDER BY 1",
      );
      expect(indexes.rows.map((r) => r.indexname)).toEqual(['events_commit_order', 'events_id_key', 'events_pkey']);
      const fn = await admin.query<{ fn: string | null }>("SELECT to_regprocedure('event_store.append_events(text, text, jsonb)')::text AS fn");
      expect(fn.rows[0]!.fn).toBeNull();
      expect((await store.append(stream, [event()], { expectedRevision: 1n })).nextRevision).toBe(2n);
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
