import type { EventStore, Position, RecordedEvent } from '@storage/eventstore/port';
import { openCopyingConnection } from '@storage/platform/copy-from';
import { type DatabasePool, type DatabasePoolConnection, type DatabaseTransactionConnection, sql } from 'slonik';
import { z } from 'zod';
import type { Projection } from './projection.ts';
import { readModelProjections } from './projections.ts';
import { type CopyConnection, ReadModelSession } from './read-model-session.ts';
import { applyEvents, applyToSession, catchUp, projectionSources, toProjectedEvent, writeFailure } from './runner.ts';

// Blue/green rebuild: the full history is applied, through the same projection modules, to
// copies of the read tables in the `shadow` schema while the live tables keep answering; one
// short transaction then swaps the copies in. A projection that reads others' tables is applied
// with copies of those (made from the same history, so it reads them as of each event), but only
// its own tables are swapped in: the live ones it read, and their checkpoints, stay as they are.

export const SHADOW_SCHEMA = 'shadow';
/** Where the replaced tables go during the swap; dropped right after it. */
const RETIRED_SCHEMA = 'retired';
/** How a rebuild goes through the history; the defaults suit a million events, tests make them small. */
export interface RebuildPacing {
  /** Events read from the log at a time, the next batch while this one is applied. */
  batchSize: number;
  /**
   * Events applied between writes of the changed rows: a row changed by many of them (a lock's
   * heartbeats, an invoice sent and paid) is written once.
   */
  eventsPerWrite: number;
  /**
   * Rows the session holds before it forgets them (those it needs again are read again): enough
   * that the rows each event touches are nearly always at hand, bounded for memory.
   */
  cachedRows: number;
}

const DEFAULT_PACING: RebuildPacing = { batchSize: 5000, eventsPerWrite: 20_000, cachedRows: 250_000 };
/** Events per transaction when the shadow catches up with the log during the swap. */
const REBUILD_BATCH_SIZE = DEFAULT_PACING.batchSize;
/** For sorting the rows of an index build; the server's default (64 MB) spills the large ones to disk. */
const INDEX_BUILD_MEMORY = '256MB';
/** Held for the whole rebuild, so two rebuilds never share the shadow schema. */
const REBUILD_LOCK_KEY = 'read-model-rebuild';

export interface RebuildProgress {
  eventsApplied: number;
}

export interface ShadowBuild {
  /** The projections applied in the shadow schema: those rebuilt, and those whose tables they read (directly or through another). */
  projections: Projection[];
  /** The projections rebuilt: theirs are the tables a swap replaces (and a verification compares), the checkpoints and failures it sets. */
  rebuilt: Projection[];
  /** The rebuilt projections' tables. */
  tables: string[];
  /** The last event applied; null when the history is empty. */
  position: Position | null;
  eventsApplied: number;
  /** Milliseconds spent making the shadow tables, applying the history, and indexing the rows. */
  timings: { setupMs: number; applyMs: number; indexMs: number; apply: ApplySplit };
}

/**
 * Where the applying's milliseconds went, on this process's one thread: waiting for the log's
 * next batch, decoding it (upcast and checked), the projections changing rows in the session
 * (with the reads of rows it does not hold), taking the changed rows as statements, and waiting
 * for the previous writes to be stored.
 */
export interface ApplySplit {
  readWaitMs: number;
  decodeMs: number;
  projectMs: number;
  takeWritesMs: number;
  writeWaitMs: number;
}

/**
 * The projections a rebuild of `name` (or of everything) swaps in: that one alone, also one that
 * reads others' tables (buildShadow applies those beside it, and swaps in none of them).
 */
export function projectionsToRebuild(name?: string): Projection[] {
  if (name === undefined) return readModelProjections;
  const projection = readModelProjections.find((p) => p.name === name);
  if (!projection) throw new Error(`Unknown projection ${name}; one of: ${readModelProjections.map((p) => p.name).join(', ')}`);
  return [projection];
}

/**
 * The projections to apply in the shadow for these to be rebuilt: they and the projections whose
 * tables they read, directly or through another, in the read model's order (each reads the others'
 * tables as the projections before it have left them). A given projection stands in for the read
 * model's one of its name.
 */
export function projectionsToApply(projections: Projection[]): Projection[] {
  const given = new Map(projections.map((p) => [p.name, p]));
  const known = new Set(readModelProjections.map((p) => p.name));
  const all = [...readModelProjections.map((p) => given.get(p.name) ?? p), ...projections.filter((p) => !known.has(p.name))];
  const sources = new Set(projectionSources(all, given.keys()).map((p) => p.name));
  return all.filter((p) => given.has(p.name) || sources.has(p.name));
}

export async function withRebuildLock<T>(pool: DatabasePool, routine: (connection: DatabasePoolConnection) => Promise<T>): Promise<T> {
  return pool.connect(async (connection) => {
    const locked = await connection.oneFirst(sql.unsafe`SELECT pg_try_advisory_lock(hashtext(${REBUILD_LOCK_KEY}))`);
    if (!locked) throw new Error('Another rebuild or verification of the read model is running');
    try {
      return await routine(connection);
    } finally {
      await connection.query(sql.unsafe`SELECT pg_advisory_unlock(hashtext(${REBUILD_LOCK_KEY}))`);
    }
  });
}

const ConstraintRow = z.object({ name: z.string(), definition: z.string() });

/** An index of a shadow table, made once its rows are in. */
interface ShadowIndex {
  table: string;
  definition: string;
}

const TableSize = z.object({ table: z.string(), bytes: z.coerce.number() });

/** SQL text the catalogue printed (pg_get_constraintdef, pg_get_indexdef), as a query fragment. */
function definitionSql(text: string) {
  return sql.fragment(Object.freeze(Object.assign([text], { raw: Object.freeze([text]) })));
}

/**
 * A copy of the live table under the same constraint and index names, which projections name
 * (ON CONFLICT ON CONSTRAINT) and which must carry over when the copy replaces the live table.
 * The keys are made at once (writes are matched on them); returned are the other indexes, to be
 * made once the rows are in: building an index over the loaded rows beats keeping it up to date
 * (the trigram search indexes especially) row batch by row batch.
 */
async function createShadowTable(tx: DatabaseTransactionConnection, table: string): Promise<ShadowIndex[]> {
  const live = sql.identifier(['public', table]);
  const shadow = sql.identifier([SHADOW_SCHEMA, table]);
  await tx.query(sql.unsafe`CREATE TABLE ${shadow} (LIKE ${live} INCLUDING ALL EXCLUDING INDEXES)`);
  const liveTable = `public.${table}`;
  const constraints = await tx.any(sql.type(ConstraintRow)`
    SELECT conname::text AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
    WHERE conrelid = ${liveTable}::regclass AND contype IN ('p', 'u', 'x') ORDER BY conname`);
  for (const c of constraints) {
    await tx.query(sql.unsafe`ALTER TABLE ${shadow} ADD CONSTRAINT ${sql.identifier([c.name])} ${definitionSql(c.definition)}`);
  }
  const indexes = await tx.any(sql.type(ConstraintRow)`
    SELECT c.relname::text AS name, pg_get_indexdef(i.indexrelid) AS definition
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = ${liveTable}::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
    ORDER BY c.relname`);
  return indexes.map((index) => {
    const definition = index.definition.replace(` ON ${liveTable} `, ` ON ${SHADOW_SCHEMA}.${table} `);
    if (definition === index.definition) throw new Error(`Cannot copy index ${index.name}: ${index.definition}`);
    return { table, definition };
  });
}

export async function applyToShadow(tx: DatabaseTransactionConnection, projections: Projection[], batch: RecordedEvent[]): Promise<void> {
  // Unqualified table names resolve to the shadow copies; tables not rebuilt stay the live ones.
  await tx.query(sql.unsafe`SET LOCAL search_path TO ${sql.identifier([SHADOW_SCHEMA])}, public`);
  await applyEvents(
    tx,
    projections,
    batch.map(toProjectedEvent).filter((event) => event !== null),
  );
}

/**
 * Applies the full history to the shadow tables through one session that lives for the whole
 * rebuild: the rows each batch needs are read once and stay at hand for the next, and a batch's
 * changed rows are written on a second connection while the next batch is applied (each table's
 * writes in order, one batch after another; new rows by COPY). The shadow tables are only ever
 * read and written by this session, which holds every row whose write is not yet stored, so what
 * it reads is always current.
 */
async function applyHistory(
  reader: DatabasePoolConnection,
  writer: CopyConnection,
  store: EventStore,
  projections: Projection[],
  onProgress: (progress: RebuildProgress) => void,
  pacing: RebuildPacing,
): Promise<{ position: Position | null; eventsApplied: number; split: ApplySplit }> {
  const session = new ReadModelSession(reader, { fresh: true });
  const split: ApplySplit = { readWaitMs: 0, decodeMs: 0, projectMs: 0, takeWritesMs: 0, writeWaitMs: 0 };
  const timed = async <T>(phase: keyof ApplySplit, work: () => Promise<T> | T): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      split[phase] += performance.now() - started;
    }
  };
  let position: Position | null = null;
  let eventsApplied = 0;
  let written: Promise<void> = Promise.resolve();
  /** Takes the changed rows and writes them once the previous writes are stored (each table's writes stay in order). */
  const write = async () => {
    const writes = await timed('takeWritesMs', () => session.takeWrites());
    await timed('writeWaitMs', () => written);
    written = writes.writeTo(writer).catch((error: unknown) => {
      throw writeFailure(projections, [], error);
    });
    written.catch(() => {}); // Awaited before the next writes or at the end.
  };
  let sinceWrite = 0;
  let next = store.readAll({ after: null, limit: pacing.batchSize });
  try {
    for (;;) {
      const batch = await timed('readWaitMs', () => next);
      if (batch.length === 0) break;
      position = batch[batch.length - 1]!.position;
      next = store.readAll({ after: position, limit: pacing.batchSize });
      next.catch(() => {}); // Handled when awaited; a failed apply must not leave it unhandled.
      const events = await timed('decodeMs', () => batch.map(toProjectedEvent).filter((event) => event !== null));
      await timed('projectMs', () => applyToSession(session, projections, events));
      eventsApplied += batch.length;
      onProgress({ eventsApplied });
      sinceWrite += batch.length;
      if (sinceWrite < pacing.eventsPerWrite) continue;
      sinceWrite = 0;
      await write();
      if (session.cachedRows > pacing.cachedRows) {
        await timed('writeWaitMs', () => written);
        session.forget();
      }
    }
    await write();
  } finally {
    await written.catch(() => {});
  }
  await timed('writeWaitMs', () => written);
  return { position, eventsApplied, split };
}

/**
 * Builds the indexes on the connections side by side, each taking the next one left: the trigram
 * (GIN) ones first, as they take longest (the activity feed's search), then those of the largest
 * tables (the audit log's five), so the small ones fill in at the end instead of one large build
 * running alone while the other connections have nothing left.
 */
async function buildIndexes(connections: DatabasePoolConnection[], indexes: ShadowIndex[]): Promise<void> {
  const sizes = await connections[0]!.any(sql.type(TableSize)`
    SELECT c.relname::text AS table, pg_table_size(c.oid) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${SHADOW_SCHEMA} AND c.relkind = 'r'`);
  const bytes = new Map(sizes.map((size) => [size.table, size.bytes]));
  const slow = ({ definition }: ShadowIndex) => (definition.includes(' USING gin ') ? 0 : 1);
  const queue = [...indexes].sort((a, b) => slow(a) - slow(b) || (bytes.get(b.table) ?? 0) - (bytes.get(a.table) ?? 0));
  await Promise.all(
    connections.map(async (connection) => {
      for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
        await connection.query(sql.unsafe`${definitionSql(index.definition)}`);
      }
    }),
  );
}

/**
 * Applies the full history to shadow copies of the projections' tables, and of the tables they
 * read (projectionsToApply); the live ones are untouched. The build names the projections' own
 * tables: those to swap in or compare.
 */
export async function buildShadow(
  pool: DatabasePool,
  connection: DatabasePoolConnection,
  store: EventStore,
  rebuilt: Projection[],
  onProgress: (progress: RebuildProgress) => void,
  pacing: RebuildPacing = DEFAULT_PACING,
): Promise<ShadowBuild> {
  const projections = projectionsToApply(rebuilt);
  const tables = rebuilt.flatMap((p) => p.tables);
  const started = performance.now();
  const indexes = await connection.transaction(async (tx) => {
    await tx.query(sql.unsafe`DROP SCHEMA IF EXISTS ${sql.identifier([SHADOW_SCHEMA])} CASCADE`);
    await tx.query(sql.unsafe`CREATE SCHEMA ${sql.identifier([SHADOW_SCHEMA])}`);
    const definitions: ShadowIndex[] = [];
    for (const table of projections.flatMap((p) => p.tables)) definitions.push(...(await createShadowTable(tx, table)));
    return definitions;
  });
  return pool.connect(async (writer) => {
    const connections = [connection, writer];
    try {
      // Unqualified table names resolve to the shadow copies; tables not rebuilt stay the live ones.
      // A crash loses nothing that matters here (the shadow is made again), so commits need not wait for the disk.
      for (const c of connections) {
        await c.query(sql.unsafe`SET search_path TO ${sql.identifier([SHADOW_SCHEMA])}, public`);
        await c.query(sql.unsafe`SET synchronous_commit TO off`);
        await c.query(sql.unsafe`SET maintenance_work_mem TO ${sql.literalValue(INDEX_BUILD_MEMORY)}`);
      }
      const applying = performance.now();
      // New rows go in by COPY, which needs a connection of the driver's own; the other writes on `writer`, in order.
      const copier = await openCopyingConnection(pool.configuration.connectionUri, [
        `SET search_path TO "${SHADOW_SCHEMA}", public`,
        'SET synchronous_commit TO off',
      ]);
      const target: CopyConnection = { query: (query) => writer.query(query), copy: (statement, rows) => copier.copy(statement, rows) };
      const { position, eventsApplied, split } = await applyHistory(connection, target, store, projections, onProgress, pacing).finally(() =>
        copier.end().catch(() => {}),
      );
      const indexing = performance.now();
      await buildIndexes(connections, indexes);
      // Statistics before the swap: tables swapped in without them are planned blind until
      // autovacuum gets to them (the audit log's actor filter on a million rows ran past the
      // statement timeout that way). The copies of tables only read are dropped with the shadow.
      for (const table of tables) await connection.query(sql.unsafe`ANALYZE ${sql.identifier([SHADOW_SCHEMA, table])}`);
      const timings = { setupMs: applying - started, applyMs: indexing - applying, indexMs: performance.now() - indexing, apply: split };
      return { projections, rebuilt, tables, position, eventsApplied, timings };
    } finally {
      // A connection that cannot take this has failed already; the error that ends the build is the one to tell.
      for (const c of connections) await c.query(sql.unsafe`RESET ALL`).catch(() => {});
    }
  });
}

/** Applies the full history to shadow copies of the projections' tables (and those they read); the live ones are untouched. */
export async function rebuildIntoShadow(
  pool: DatabasePool,
  store: EventStore,
  projections: Projection[],
  onProgress: (progress: RebuildProgress) => void = () => {},
): Promise<ShadowBuild> {
  return withRebuildLock(pool, (connection) => buildShadow(pool, connection, store, projections, onProgress));
}

/**
 * Swaps the rebuilt projections' shadow tables in: in one transaction that holds their checkpoints
 * (so the live projector waits), the events appended while the shadow was built are applied to it
 * (so the read model never steps back: a staff member added during a rebuild can still sign in
 * the moment it is swapped in), the live tables are retired, the shadow ones take their place,
 * the checkpoints move to the position the shadow reached and the projections' recorded failures
 * are cleared. The shadow copies of the tables they only read are not swapped in: those live
 * tables and their checkpoints stay (a rebuilt reader may so be ahead of a source that is failing
 * on an event; it passes over what it has applied once that one goes on).
 */
export async function swapIn(connection: DatabasePoolConnection, store: EventStore, build: ShadowBuild): Promise<void> {
  const names = sql.array(
    build.rebuilt.map((p) => p.name),
    'text',
  );
  await connection.transaction(async (tx) => {
    // A projection the live projector never ran (a history appended, then rebuilt, before the
    // first start) has no checkpoint yet: without one the projector would start it from the
    // beginning, over the tables this swap fills.
    await tx.query(sql.unsafe`INSERT INTO projection_checkpoints (name) SELECT unnest(${names}) ON CONFLICT (name) DO NOTHING`);
    await tx.query(sql.unsafe`SELECT name FROM projection_checkpoints WHERE name = ANY(${names}) ORDER BY name FOR UPDATE`);
    for (;;) {
      const batch = await store.readAll({ after: build.position, limit: REBUILD_BATCH_SIZE });
      if (batch.length === 0) break;
      await applyToShadow(tx, build.projections, batch);
      build.position = batch[batch.length - 1]!.position;
      build.eventsApplied += batch.length;
    }
    await tx.query(sql.unsafe`DROP SCHEMA IF EXISTS ${sql.identifier([RETIRED_SCHEMA])} CASCADE`);
    await tx.query(sql.unsafe`CREATE SCHEMA ${sql.identifier([RETIRED_SCHEMA])}`);
    for (const table of build.tables) {
      await tx.query(sql.unsafe`ALTER TABLE ${sql.identifier(['public', table])} SET SCHEMA ${sql.identifier([RETIRED_SCHEMA])}`);
      await tx.query(sql.unsafe`ALTER TABLE ${sql.identifier([SHADOW_SCHEMA, table])} SET SCHEMA public`);
    }
    await tx.query(sql.unsafe`
      UPDATE projection_checkpoints
      SET position_hi = ${build.position?.hi.toString() ?? null}, position_lo = ${build.position?.lo.toString() ?? null}, updated_at = now()
      WHERE name = ANY(${names})`);
    // The rebuilt tables hold every event up to the checkpoint: a failure recorded on the old ones is
    // past. One that holds a rebuilt projection (a source failing) stays: it still holds it.
    await tx.query(sql.unsafe`DELETE FROM projection_failures WHERE projection = ANY(${names})`);
  });
  await connection.query(sql.unsafe`DROP SCHEMA ${sql.identifier([RETIRED_SCHEMA])} CASCADE`);
  await connection.query(sql.unsafe`DROP SCHEMA IF EXISTS ${sql.identifier([SHADOW_SCHEMA])} CASCADE`);
}

/** Rebuilds the projections' tables from the full history and swaps them in while the product runs. */
export async function rebuildReadModel(
  pool: DatabasePool,
  store: EventStore,
  projections: Projection[],
  onProgress: (progress: RebuildProgress) => void = () => {},
): Promise<ShadowBuild> {
  const build = await withRebuildLock(pool, async (connection) => {
    const shadow = await buildShadow(pool, connection, store, projections, onProgress);
    await swapIn(connection, store, shadow);
    return shadow;
  });
  await catchUp(pool, store, readModelProjections);
  return build;
}
