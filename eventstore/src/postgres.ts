// The Postgres adapter of the event store port (the default, and the embedded mode's store).
import pg from 'pg';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadAllBackwardsOptions,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from './port.ts';

export interface PostgresEventStore extends EventStore {
  readonly kind: 'postgres';
  /** Creates the event_store schema if it is missing; safe to run at every start, concurrently. */
  migrate(): Promise<void>;
}

export type PostgresEventStoreOptions =
  | { connectionString: string }
  /** A pool owned by the caller: close() leaves it open. */
  | { pool: pg.Pool };

const SCHEMA_SQL = `
CREATE SCHEMA IF NOT EXISTS event_store;

CREATE TABLE IF NOT EXISTS event_store.streams (
  name text PRIMARY KEY,
  revision bigint NOT NULL
);

CREATE TABLE IF NOT EXISTS event_store.events (
  global_position bigserial NOT NULL,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_name text NOT NULL REFERENCES event_store.streams (name),
  revision bigint NOT NULL,
  id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (stream_name, revision)
);

CREATE INDEX IF NOT EXISTS events_commit_order ON event_store.events (transaction_id, global_position);
-- The auditors' event log: filtered by type, actor and when events occurred, newest first, and
-- events that occurred at the same instant in the log's order (as readAllBackwards gives them).
CREATE INDEX IF NOT EXISTS events_occurred_at_log_order_idx
  ON event_store.events ((metadata->>'occurredAt') DESC, transaction_id DESC, global_position DESC);
-- Its predecessor broke ties by global_position alone, which is not the log's order between
-- appends committed concurrently.
DROP INDEX IF EXISTS event_store.events_occurred_at_idx;
CREATE INDEX IF NOT EXISTS events_type_idx ON event_store.events (type, (metadata->>'occurredAt') DESC);
CREATE INDEX IF NOT EXISTS events_actor_idx ON event_store.events ((metadata->'actor'->>'id'));

-- An append in one statement (one round trip, its own transaction): the same steps as
-- appendWithinTransaction below. A wrong expected revision raises SQLSTATE ES409 with the
-- stream's revision ('no_stream' when it does not exist) as the message.
CREATE OR REPLACE FUNCTION event_store.append_events(p_stream text, p_expected text, p_events jsonb)
RETURNS TABLE (out_revision bigint, out_transaction_id text, out_global_position bigint)
LANGUAGE plpgsql AS $$
DECLARE
  actual bigint;
  first_revision bigint;
  last_revision bigint;
BEGIN
  SELECT s.revision INTO actual FROM event_store.streams s WHERE s.name = p_stream FOR UPDATE;
  IF NOT (p_expected = 'any'
      OR (p_expected = 'no_stream' AND actual IS NULL)
      OR (p_expected = 'stream_exists' AND actual IS NOT NULL)
      OR (p_expected ~ '^[0-9]+$' AND actual IS NOT NULL AND actual = p_expected::bigint)) THEN
    RAISE EXCEPTION USING ERRCODE = 'ES409', MESSAGE = coalesce(actual::text, 'no_stream');
  END IF;
  first_revision := coalesce(actual + 1, 0);
  last_revision := first_revision + jsonb_array_length(p_events) - 1;
  IF actual IS NULL THEN
    INSERT INTO event_store.streams (name, revision) VALUES (p_stream, last_revision);
  ELSE
    UPDATE event_store.streams SET revision = last_revision WHERE name = p_stream;
  END IF;
  WITH inserted AS (
    INSERT INTO event_store.events (stream_name, revision, id, type, data, metadata)
    SELECT p_stream, first_revision + e.ordinality - 1, (e.event->>'id')::uuid, e.event->>'type', e.event->'data', e.event->'metadata'
    FROM jsonb_array_elements(p_events) WITH ORDINALITY AS e(event, ordinality)
    ORDER BY e.ordinality
    RETURNING global_position
  )
  SELECT max(global_position) INTO out_global_position FROM inserted;
  out_revision := last_revision;
  out_transaction_id := pg_current_xact_id()::text;
  RETURN NEXT;
END
$$;

CREATE OR REPLACE FUNCTION event_store.reject_change_to_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'event_store.events is append-only: % is not allowed', TG_OP;
END
$$;

-- Statement level, so it fires even when the statement would touch no row.
CREATE OR REPLACE TRIGGER events_are_append_only
  BEFORE UPDATE OR DELETE OR TRUNCATE ON event_store.events
  FOR EACH STATEMENT EXECUTE FUNCTION event_store.reject_change_to_events();
`;

/** The SQLSTATE event_store.append_events raises on a wrong expected revision. */
const WRONG_REVISION_CODE = 'ES409';
const UNDEFINED_FUNCTION_CODE = '42883';

// Any fixed key: it only serialises concurrent migrations of this schema.
const MIGRATION_LOCK_KEY = 7_305_921_448_113;

// Every transaction below the oldest still running one has ended, so nothing can be committed
// later with a smaller transaction id: reading only below it never passes an event still to come.
const VISIBLE = 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())';

const EVENT_COLUMNS = 'global_position, transaction_id, stream_name, revision, id, type, data, metadata, recorded_at';

interface EventRow {
  global_position: string;
  transaction_id: string;
  stream_name: string;
  revision: string;
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  recorded_at: Date;
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    streamName: row.stream_name,
    revision: BigInt(row.revision),
    position: { hi: BigInt(row.transaction_id), lo: BigInt(row.global_position) },
    recordedAt: row.recorded_at.toISOString(),
  };
}

function isUniqueViolationOf(error: unknown, constraint: string): boolean {
  return error instanceof pg.DatabaseError && error.code === '23505' && error.constraint === constraint;
}

function isSatisfied(expected: ExpectedRevision, actual: bigint | 'no_stream'): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === 'no_stream';
    case 'stream_exists':
      return actual !== 'no_stream';
    default:
      return actual === expected;
  }
}

/**
 * Runs an append on a client whose transaction the caller owns (BEGIN before, COMMIT after).
 * The adapter's append() uses it; so do tests that must hold an append's transaction open.
 */
export async function appendWithinTransaction(
  client: pg.ClientBase,
  stream: string,
  events: NewEvent[],
  expectedRevision: ExpectedRevision,
): Promise<AppendResult> {
  if (events.length === 0) throw new Error(`Append to ${stream} needs at least one event`);

  const current = await client.query<{ revision: string }>('SELECT revision FROM event_store.streams WHERE name = $1 FOR UPDATE', [stream]);
  const actual = current.rows[0] ? BigInt(current.rows[0].revision) : 'no_stream';
  if (!isSatisfied(expectedRevision, actual)) throw new WrongExpectedRevisionError(stream, expectedRevision, actual);

  const firstRevision = actual === 'no_stream' ? 0n : actual + 1n;
  const nextRevision = firstRevision + BigInt(events.length) - 1n;
  if (actual === 'no_stream') {
    // A concurrent first append to the same stream makes this insert wait for it, then fail
    // with a unique violation on streams_pkey if it committed: exactly one of them wins.
    await client.query('INSERT INTO event_store.streams (name, revision) VALUES ($1, $2)', [stream, nextRevision.toString()]);
  } else {
    await client.query('UPDATE event_store.streams SET revision = $2 WHERE name = $1', [stream, nextRevision.toString()]);
  }

  const inserted = await client.query<{ transaction_id: string; global_position: string }>(
    `INSERT INTO event_store.events (stream_name, revision, id, type, data, metadata)
     SELECT $1, $2::bigint + e.ordinality - 1, (e.event->>'id')::uuid, e.event->>'type', e.event->'data', e.event->'metadata'
     FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(event, ordinality)
     ORDER BY e.ordinality
     RETURNING transaction_id, global_position`,
    [stream, firstRevision.toString(), JSON.stringify(events)],
  );
  const last = inserted.rows.reduce((a, b) => (BigInt(a.global_position) > BigInt(b.global_position) ? a : b));
  return { nextRevision, position: { hi: BigInt(last.transaction_id), lo: BigInt(last.global_position) } };
}

function ownPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString });
  // An idle connection the server closes is dropped by the pool; without a listener it would crash the process.
  pool.on('error', () => {});
  return pool;
}

export async function createPostgresEventStore(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
  const ownsPool = !('pool' in options);
  const pool = 'pool' in options ? options.pool : ownPool(options.connectionString);

  async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      // A connection whose rollback failed is in an unknown state: destroy it rather than reuse it.
      await client.query('ROLLBACK').then(
        () => client.release(),
        (rollbackError: Error) => client.release(rollbackError),
      );
      throw error;
    }
  }

  return {
    kind: 'postgres',

    async migrate() {
      await inTransaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        await client.query(SCHEMA_SQL);
      });
    },

    async append(stream, events, { expectedRevision }) {
      if (events.length === 0) throw new Error(`Append to ${stream} needs at least one event`);
      // One statement, one round trip (appendWithinTransaction's five, and BEGIN and COMMIT, add up
      // when a process such as the billing day appends tens of thousands of times).
      const appendInNewTransaction = async (): Promise<AppendResult> => {
        try {
          const result = await pool.query<{ out_revision: string; out_transaction_id: string; out_global_position: string }>(
            'SELECT out_revision, out_transaction_id, out_global_position FROM event_store.append_events($1, $2, $3::jsonb)',
            [stream, expectedRevision.toString(), JSON.stringify(events)],
          );
          const row = result.rows[0]!;
          return { nextRevision: BigInt(row.out_revision), position: { hi: BigInt(row.out_transaction_id), lo: BigInt(row.out_global_position) } };
        } catch (error) {
          // A schema made before the function (and not migrated since): the append of old.
          if (error instanceof pg.DatabaseError && error.code === UNDEFINED_FUNCTION_CODE) {
            return inTransaction((client) => appendWithinTransaction(client, stream, events, expectedRevision));
          }
          if (!(error instanceof pg.DatabaseError && error.code === WRONG_REVISION_CODE)) throw error;
          throw new WrongExpectedRevisionError(stream, expectedRevision, error.message === 'no_stream' ? 'no_stream' : BigInt(error.message));
        }
      };
      try {
        return await appendInNewTransaction();
      } catch (error) {
        if (!isUniqueViolationOf(error, 'streams_pkey')) throw error;
        // Another append created the stream and committed first. 'any' accepts that, and as
        // streams are never deleted the retry finds the row and cannot lose this way again.
        if (expectedRevision === 'any') return appendInNewTransaction();
        const current = await pool.query<{ revision: string }>('SELECT revision FROM event_store.streams WHERE name = $1', [stream]);
        throw new WrongExpectedRevisionError(stream, expectedRevision, BigInt(current.rows[0]!.revision));
      }
    },

    async readStream(stream: string, options: ReadStreamOptions = {}) {
      const result = await pool.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM event_store.events
         WHERE stream_name = $1 AND revision >= $2
           AND ($3::timestamptz IS NULL OR (metadata->>'occurredAt')::timestamptz <= $3::timestamptz)
         ORDER BY revision`,
        [stream, (options.fromRevision ?? 0n).toString(), options.until?.toISOString() ?? null],
      );
      return result.rows.map(toRecordedEvent);
    },

    async readStreams(names: readonly string[]) {
      const read = new Map<string, RecordedEvent[]>(names.map((name) => [name, []]));
      if (names.length === 0) return read;
      const result = await pool.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM event_store.events WHERE stream_name = ANY($1::text[]) ORDER BY stream_name, revision`,
        [[...new Set(names)]],
      );
      for (const row of result.rows) read.get(row.stream_name)!.push(toRecordedEvent(row));
      return read;
    },

    async readAll({ after, limit }: ReadAllOptions) {
      // Transaction ids start above 0 and global positions at 1, so (0, 0) precedes every event.
      const from: Position = after ?? { hi: 0n, lo: 0n };
      const result = await pool.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM event_store.events
         WHERE ${VISIBLE} AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
         ORDER BY transaction_id, global_position
         LIMIT $3`,
        [from.hi.toString(), from.lo.toString(), limit],
      );
      return result.rows.map(toRecordedEvent);
    },

    async readAllBackwards({ before, limit }: ReadAllBackwardsOptions) {
      // The same visibility rule as readAll, walked down the commit-order index from its top.
      const result = before
        ? await pool.query<EventRow>(
            `SELECT ${EVENT_COLUMNS} FROM event_store.events
             WHERE ${VISIBLE} AND (transaction_id, global_position) < ($1::xid8, $2::bigint)
             ORDER BY transaction_id DESC, global_position DESC
             LIMIT $3`,
            [before.hi.toString(), before.lo.toString(), limit],
          )
        : await pool.query<EventRow>(
            `SELECT ${EVENT_COLUMNS} FROM event_store.events
             WHERE ${VISIBLE}
             ORDER BY transaction_id DESC, global_position DESC
             LIMIT $1`,
            [limit],
          );
      return result.rows.map(toRecordedEvent);
    },

    async headPosition() {
      const result = await pool.query<Pick<EventRow, 'transaction_id' | 'global_position'>>(
        `SELECT transaction_id, global_position FROM event_store.events
         WHERE ${VISIBLE}
         ORDER BY transaction_id DESC, global_position DESC
         LIMIT 1`,
      );
      const row = result.rows[0];
      return row ? { hi: BigInt(row.transaction_id), lo: BigInt(row.global_position) } : null;
    },

    async close() {
      if (ownsPool) await pool.end();
    },
  };
}
