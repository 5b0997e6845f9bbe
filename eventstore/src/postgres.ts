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
-- Each index costs every append. The auditors' log (filtered by type, actor and when events
-- occurred) is a read-model projection of its own, so these JSON indexes serve nobody any more;
-- events_occurred_at_idx is their predecessor.
DROP INDEX IF EXISTS event_store.events_occurred_at_log_order_idx;
DROP INDEX IF EXISTS event_store.events_occurred_at_idx;
DROP INDEX IF EXISTS event_store.events_type_idx;
DROP INDEX IF EXISTS event_store.events_actor_idx;
-- The append was this plpgsql function before it became one prepared statement (APPEND below).
DROP FUNCTION IF EXISTS event_store.append_events(text, text, jsonb);

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

// Any fixed key: it only serialises concurrent migrations of this schema.
const MIGRATION_LOCK_KEY = 7_305_921_448_113;

/**
 * The horizon of the events readAll may pass: the oldest transaction still running that may yet
 * commit an event here, else the snapshot's xmax (from which on every id counts as running).
 * Every transaction below it has ended, or belongs to a session of another database of the
 * server, which cannot write to this database's tables: so nothing can be committed later with a
 * smaller transaction id, and reading only below it never passes an event still to come.
 *
 * pg_snapshot_xmin(pg_current_snapshot()) would do as well but is cluster-wide: one transaction
 * held open in any other database would hold back every reader here. So, in the statement's own
 * snapshot: its in-progress (top-level) transaction ids, less those pg_stat_activity shows as the
 * transaction of a backend of another database (backend_xid, the 32-bit form of the same top-level
 * id; visible to every role). Whatever is not found there (ended meanwhile, prepared for two-phase
 * commit, a backend with no database) is kept: it may be ours. On a hot standby a snapshot lists
 * no in-progress ids (they are all kept as subtransactions), so there the cluster-wide xmin it is.
 *
 * A backend slot reused while the view is read cannot pass one of our ids off as another
 * database's: an id in the snapshot was assigned before the statement began, so until it ends its
 * slot holds its own backend, and once it has ended no other backend reports it. That needs the
 * view read afresh with the snapshot, which it is: the store runs every statement on its own,
 * autocommitted (inside a transaction block PostgreSQL keeps the view from its first read).
 */
const HORIZON = `(
  SELECT CASE WHEN pg_is_in_recovery() THEN pg_snapshot_xmin(pg_current_snapshot())
    ELSE coalesce(min(running.xid), pg_snapshot_xmax(pg_current_snapshot())) END
  FROM pg_snapshot_xip(pg_current_snapshot()) AS running(xid)
  WHERE NOT EXISTS (
    SELECT FROM pg_stat_activity AS a
    WHERE a.backend_xid = running.xid::xid
      AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
  )
)`;

const VISIBLE = `transaction_id < ${HORIZON}`;

const EVENT_COLUMNS = 'global_position, transaction_id, stream_name, revision, id, type, data, metadata, recorded_at';

/**
 * The store's reads, each a named statement: prepared once per connection, so PostgreSQL does not
 * parse and plan it again on every call (under bench:commands planning a stream's read took 47 µs
 * and running it 22 µs). Names and texts are fixed; the values vary. PostgreSQL plans again by
 * itself when a table it reads changes, and keeps planning each call anew where a generic plan
 * would cost more.
 */
const READS = {
  stream: {
    name: 'event_store.read_stream',
    text: `SELECT ${EVENT_COLUMNS} FROM event_store.events
      WHERE stream_name = $1 AND revision >= $2
        AND ($3::timestamptz IS NULL OR (metadata->>'occurredAt')::timestamptz <= $3::timestamptz)
      ORDER BY revision`,
  },
  streams: {
    name: 'event_store.read_streams',
    text: `SELECT ${EVENT_COLUMNS} FROM event_store.events WHERE stream_name = ANY($1::text[]) ORDER BY stream_name, revision`,
  },
  all: {
    name: 'event_store.read_all',
    text: `SELECT ${EVENT_COLUMNS} FROM event_store.events
      WHERE ${VISIBLE} AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
      ORDER BY transaction_id, global_position
      LIMIT $3`,
  },
  allBackwardsBefore: {
    name: 'event_store.read_all_backwards_before',
    text: `SELECT ${EVENT_COLUMNS} FROM event_store.events
      WHERE ${VISIBLE} AND (transaction_id, global_position) < ($1::xid8, $2::bigint)
      ORDER BY transaction_id DESC, global_position DESC
      LIMIT $3`,
  },
  allBackwards: {
    name: 'event_store.read_all_backwards',
    text: `SELECT ${EVENT_COLUMNS} FROM event_store.events
      WHERE ${VISIBLE}
      ORDER BY transaction_id DESC, global_position DESC
      LIMIT $1`,
  },
  head: {
    name: 'event_store.head',
    text: `SELECT transaction_id, global_position FROM event_store.events
      WHERE ${VISIBLE}
      ORDER BY transaction_id DESC, global_position DESC
      LIMIT 1`,
  },
  newest: {
    name: 'event_store.newest',
    text: `SELECT transaction_id, global_position FROM event_store.events
      ORDER BY transaction_id DESC, global_position DESC
      LIMIT 1`,
  },
} as const;

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
 * How the stream's row moves to the revision of the last event appended ($2: how many), one
 * statement per kind of expected revision. Each returns the new revision, or no row when the
 * expectation fails. Under READ COMMITTED a concurrent append to the same stream makes it wait
 * for that one to end and then decide on the row as it committed: exactly one of two appends at
 * the same expected revision (or two first appends) wins.
 */
const MOVE_STREAM = {
  no_stream: `INSERT INTO event_store.streams (name, revision) VALUES ($1, $2::bigint - 1)
    ON CONFLICT (name) DO NOTHING
    RETURNING revision`,
  any: `INSERT INTO event_store.streams AS s (name, revision) VALUES ($1, $2::bigint - 1)
    ON CONFLICT (name) DO UPDATE SET revision = s.revision + $2::bigint
    RETURNING revision`,
  stream_exists: `UPDATE event_store.streams SET revision = revision + $2::bigint
    WHERE name = $1
    RETURNING revision`,
  revision: `UPDATE event_store.streams SET revision = revision + $2::bigint
    WHERE name = $1 AND revision = $4::bigint
    RETURNING revision`,
} as const;

type ExpectationKind = keyof typeof MOVE_STREAM;

/**
 * An append in one statement: the stream's row moved, then the events inserted at the revisions
 * that follow ($3: the events as a JSON array, in order; $4: the expected revision, if exact). When the expectation fails, nothing is
 * inserted and revision is null. Prepared once per connection (a named statement).
 */
const APPEND = Object.fromEntries(
  Object.entries(MOVE_STREAM).map(([kind, move]) => [
    kind,
    {
      name: `event_store.append.${kind}`,
      text: `WITH stream AS (${move}),
  inserted AS (
    INSERT INTO event_store.events (stream_name, revision, id, type, data, metadata)
    SELECT $1, stream.revision - $2::bigint + e.ordinality, (e.event->>'id')::uuid, e.event->>'type', e.event->'data', e.event->'metadata'
    FROM stream, jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(event, ordinality)
    ORDER BY e.ordinality
    RETURNING transaction_id, global_position
  )
SELECT (SELECT revision FROM stream) AS revision,
  (SELECT transaction_id::text FROM inserted LIMIT 1) AS transaction_id,
  (SELECT max(global_position) FROM inserted) AS global_position`,
    },
  ]),
) as Record<ExpectationKind, { name: string; text: string }>;

function expectationKind(expected: ExpectedRevision): ExpectationKind {
  return typeof expected === 'bigint' ? 'revision' : expected;
}

/** A stream's revision that another append moved it to can differ from what it expected only so often in a row. */
const MAX_APPEND_ATTEMPTS = 3;

/**
 * Appends on `client`, in its own transaction (the statement autocommits) or in the caller's
 * (BEGIN before, COMMIT after: tests that must hold an append's transaction open).
 */
export async function appendWithinTransaction(
  client: pg.ClientBase | pg.Pool,
  stream: string,
  events: NewEvent[],
  expectedRevision: ExpectedRevision,
): Promise<AppendResult> {
  if (events.length === 0) throw new Error(`Append to ${stream} needs at least one event`);
  const statement = APPEND[expectationKind(expectedRevision)];
  const values: unknown[] = [stream, events.length, JSON.stringify(events)];
  if (typeof expectedRevision === 'bigint') values.push(expectedRevision.toString());
  for (let attempt = 1; ; attempt++) {
    const result = await client.query<{ revision: string | null; transaction_id: string; global_position: string }>({ ...statement, values });
    const row = result.rows[0]!;
    if (row.revision !== null) {
      return { nextRevision: BigInt(row.revision), position: { hi: BigInt(row.transaction_id), lo: BigInt(row.global_position) } };
    }
    // Refused: say where the stream is. The statement's snapshot may not have shown a stream
    // another append was creating as it ran; if the stream now satisfies the expectation after
    // all, the refusal was that race, and the append is tried again.
    const current = await client.query<{ revision: string }>('SELECT revision FROM event_store.streams WHERE name = $1', [stream]);
    const actual = current.rows[0] ? BigInt(current.rows[0].revision) : 'no_stream';
    if (!isSatisfied(expectedRevision, actual) || attempt >= MAX_APPEND_ATTEMPTS) throw new WrongExpectedRevisionError(stream, expectedRevision, actual);
  }
}

/** Raised at start when the log holds transaction ids this server has not reached (a logical dump restored on another server). */
export class LogAheadOfServerError extends Error {
  readonly newestInLog: bigint;
  constructor(newestInLog: bigint, serverNext: bigint) {
    super(
      `The event log's newest transaction id (${newestInLog}) is ahead of this PostgreSQL server's next one (${serverNext}): ` +
        'the log was restored from a logical dump (pg_dump) of another server. Events are ordered by the id of the transaction ' +
        'that wrote them, so until this server passes that id the restored events stay unread and new ones would be ordered ' +
        `before them. Stop the server and advance its transaction ids past the log's with pg_resetwal -x ${newestInLog + 1n} ` +
        '(or restore a physical backup, pg_basebackup, which keeps them), then start again. Nothing was written.',
    );
    this.name = 'LogAheadOfServerError';
    this.newestInLog = newestInLog;
  }
}

/**
 * The log's order is (transaction id, position), read below the oldest running transaction. A log
 * copied by pg_dump onto another server keeps its transaction ids while the server counts from its
 * own: the copied events would be invisible until the server catches up, and anything appended
 * meanwhile would sort before them, behind every checkpoint. Refuse to start on such a log.
 */
async function refuseLogAheadOfServer(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ newest: string | null; next: string }>(
    `SELECT (SELECT transaction_id FROM event_store.events ORDER BY transaction_id DESC, global_position DESC LIMIT 1)::text AS newest,
            pg_snapshot_xmax(pg_current_snapshot())::text AS next`,
  );
  const newest = rows[0]?.newest;
  if (newest != null && BigInt(newest) >= BigInt(rows[0]!.next)) throw new LogAheadOfServerError(BigInt(newest), BigInt(rows[0]!.next));
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
        await refuseLogAheadOfServer(client);
      });
    },

    async append(stream, events, { expectedRevision }) {
      // One statement, one round trip, its own transaction.
      return appendWithinTransaction(pool, stream, events, expectedRevision);
    },

    async readStream(stream: string, options: ReadStreamOptions = {}) {
      const result = await pool.query<EventRow>({
        ...READS.stream,
        values: [stream, (options.fromRevision ?? 0n).toString(), options.until?.toISOString() ?? null],
      });
      return result.rows.map(toRecordedEvent);
    },

    async readStreams(names: readonly string[]) {
      const read = new Map<string, RecordedEvent[]>(names.map((name) => [name, []]));
      if (names.length === 0) return read;
      const result = await pool.query<EventRow>({ ...READS.streams, values: [[...new Set(names)]] });
      for (const row of result.rows) read.get(row.stream_name)!.push(toRecordedEvent(row));
      return read;
    },

    async readAll({ after, limit }: ReadAllOptions) {
      // Transaction ids start above 0 and global positions at 1, so (0, 0) precedes every event.
      const from: Position = after ?? { hi: 0n, lo: 0n };
      const result = await pool.query<EventRow>({ ...READS.all, values: [from.hi.toString(), from.lo.toString(), limit] });
      return result.rows.map(toRecordedEvent);
    },

    async readAllBackwards({ before, limit }: ReadAllBackwardsOptions) {
      // The same visibility rule as readAll, walked down the commit-order index from its top.
      const result = before
        ? await pool.query<EventRow>({ ...READS.allBackwardsBefore, values: [before.hi.toString(), before.lo.toString(), limit] })
        : await pool.query<EventRow>({ ...READS.allBackwards, values: [limit] });
      return result.rows.map(toRecordedEvent);
    },

    async headPosition() {
      const result = await pool.query<Pick<EventRow, 'transaction_id' | 'global_position'>>(READS.head);
      const row = result.rows[0];
      return row ? { hi: BigInt(row.transaction_id), lo: BigInt(row.global_position) } : null;
    },

    async newestPosition() {
      // Every event the statement's snapshot shows: committed, whether or not an older append still runs.
      const result = await pool.query<Pick<EventRow, 'transaction_id' | 'global_position'>>(READS.newest);
      const row = result.rows[0];
      return row ? { hi: BigInt(row.transaction_id), lo: BigInt(row.global_position) } : null;
    },

    async close() {
      if (ownsPool) await pool.end();
    },
  };
}
