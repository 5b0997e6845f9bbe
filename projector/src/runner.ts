import { isEventType, upcast } from '@storage/contracts/events';
import { comparePositions, type EventStore, type Position, type RecordedEvent } from '@storage/eventstore/port';
import { CheckpointRow, earliestPosition, failedProjections, projectedPosition, toPosition } from '@storage/platform/checkpoints';
import { type DatabasePool, type DatabaseTransactionConnection, sql } from 'slonik';
import { z } from 'zod';
import { errorText } from './error-text.ts';
import type { ProjectedEvent, Projection } from './projection.ts';
import { ReadModelSession, TableWriteError, TableWrites } from './read-model-session.ts';
import type { TableName } from './read-model-tables.ts';

const BATCH_SIZE = 500;
/** The stored error message is cut here: it is for people, and a runaway one must not bloat the table. */
const ERROR_TEXT_LIMIT = 2000;

const NamedCheckpointRow = CheckpointRow.extend({ name: z.string() });

/** A recorded failure (projection_failures) as a batch sees it. */
interface Failure {
  projection: string;
  event_id: string;
  /** The event's position: the failure is past once its projection's checkpoint has reached it. */
  position: Position;
  attempts: number;
  first_failed_at: string;
  next_attempt_at: string;
  /** The projections it holds at its event with it. */
  holds: string[];
}

/** A checkpoint locked for a batch, with its projection's failure when it has one (one statement for both). */
const LockedCheckpointRow = NamedCheckpointRow.extend({
  event_id: z.string().nullable(),
  failed_hi: z.string().nullable(),
  failed_lo: z.string().nullable(),
  attempts: z.number().nullable(),
  first_failed_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  holds: z.array(z.string()).nullable(),
});
/** Every batch starts with it: a named statement, planned once per connection. */
const lockCheckpointsStatement = sql.prepared('projection_checkpoints_lock', LockedCheckpointRow);

function isAfter(position: Position, checkpoint: Position | null): boolean {
  return checkpoint === null || comparePositions(position, checkpoint) > 0;
}

export const describePosition = (position: Position) => `${position.hi}/${position.lo}`;

/** A stored event that this release cannot read (a newer schema version, data its schema refuses). */
export class UnreadableEventError extends Error {
  constructor(recorded: RecordedEvent, cause: unknown) {
    super(`event ${recorded.id} (${recorded.type} at ${describePosition(recorded.position)}) cannot be read: ${errorText(cause)}`, { cause });
    this.name = 'UnreadableEventError';
  }
}

/** The event in its current shape, or null for a type the read model does not know. */
export function toProjectedEvent(recorded: RecordedEvent): ProjectedEvent | null {
  if (!isEventType(recorded.type)) return null;
  let current: ReturnType<typeof upcast>;
  try {
    current = upcast(recorded.type, recorded.metadata.schemaVersion, recorded.data);
  } catch (error) {
    throw new UnreadableEventError(recorded, error);
  }
  return {
    ...current,
    id: recorded.id,
    streamName: recorded.streamName,
    revision: recorded.revision,
    metadata: recorded.metadata,
    position: recorded.position,
    recordedAt: recorded.recordedAt,
  } as ProjectedEvent;
}

type EventRef = Pick<RecordedEvent, 'id' | 'type' | 'position'>;

/** A projection that threw on an event, or whose tables could not be written after a batch (event null). */
export class ProjectionError extends Error {
  readonly projection: string;
  readonly event: EventRef | null;
  constructor(projection: string, event: EventRef | null, cause: unknown) {
    const where = event ? `on event ${event.id} (${event.type} at ${describePosition(event.position)})` : 'writing its batch';
    super(`The ${projection} projection failed ${where}: ${errorText(cause)}`, { cause });
    this.name = 'ProjectionError';
    this.projection = projection;
    this.event = event;
  }
}

/** The tables whose rows an event names by these ids: loaded for a whole batch at once. */
const tablesKeyedBy: Record<string, TableName[]> = {
  customerId: ['customers', 'metrics_customers', 'autopay_enrollments', 'customer_balances'],
  unitId: ['units', 'metrics_units'],
  lockId: ['locks'],
  invoiceId: ['invoices', 'autopay_charges'],
  paymentMethodId: ['payment_methods'],
  leaseId: ['leases'],
  changeId: ['lease_rent_changes'],
  facilityId: ['facilities', 'gateway_keys'],
  reservationId: ['reservations'],
  staffId: ['staff'],
  notificationId: ['notifications'],
  scope: ['settings'],
};

/**
 * Tables whose row is keyed by the event that made it: a projection that reads one after its
 * owner (the report totals read the ledger's entry of each event) finds every event's row, or
 * learns it has none, in the batch's one query.
 */
const tablesKeyedByEventId: TableName[] = ['ledger_entries'];

function rowsNamedBy(events: ProjectedEvent[], projections: Projection[]): Map<TableName, Set<string>> {
  const owned = new Set<string>(projections.flatMap((p) => p.tables));
  // Per event type, only the fields that name a table of these projections that the projections
  // handling that type own or read: a customer added needs no gateway key or autopay row. A row
  // a projection asks for that was not loaded here is read then (ReadModelSession.get).
  const fieldsByType = new Map<string, Array<readonly [string, TableName[]]>>();
  const fieldsOf = (type: string) => {
    let fields = fieldsByType.get(type);
    if (!fields) {
      const used = new Set<string>(
        projections.filter((p) => !p.canHandle || (p.canHandle as readonly string[]).includes(type)).flatMap((p) => [...p.tables, ...(p.reads ?? [])]),
      );
      fields = Object.entries(tablesKeyedBy)
        .map(([field, tables]) => [field, tables.filter((table) => owned.has(table) && used.has(table))] as const)
        .filter(([, tables]) => tables.length > 0);
      fieldsByType.set(type, fields);
    }
    return fields;
  };
  const byEventId = tablesKeyedByEventId
    .filter((table) => owned.has(table))
    .map((table) => [table, projections.filter((p) => p.reads?.includes(table))] as const)
    .filter(([, readers]) => readers.length > 0);
  const keys = new Map<TableName, Set<string>>();
  const add = (table: TableName, id: string) => {
    let ids = keys.get(table);
    if (!ids) {
      ids = new Set();
      keys.set(table, ids);
    }
    ids.add(id);
  };
  const fixedRowsByType = new Map<string, Array<readonly [TableName, string]>>();
  const fixedRowsOf = (type: ProjectedEvent['type']) => {
    let rows = fixedRowsByType.get(type);
    if (!rows) {
      rows = projections
        .filter((p) => p.readsRows && (!p.canHandle || p.canHandle.includes(type)))
        .flatMap((p) => p.readsRows!(type))
        .filter(([table]) => owned.has(table));
      fixedRowsByType.set(type, rows);
    }
    return rows;
  };
  for (const event of events) {
    const data = event.data as Record<string, unknown>;
    for (const [field, tables] of fieldsOf(event.type)) {
      const id = data[field];
      if (typeof id !== 'string') continue;
      for (const table of tables) add(table, id);
    }
    for (const [table, key] of fixedRowsOf(event.type)) add(table, key);
    for (const [table, readers] of byEventId) {
      if (readers.some((p) => !p.canHandle || p.canHandle.includes(event.type))) add(table, event.id);
    }
  }
  return keys;
}

/**
 * Applies events, in order, to the projections that `applies` selects, through one session:
 * the rows the events name are read up front, and the changed rows are written back at the end.
 * A failure is a ProjectionError naming the projection (and the event, when one event is known).
 */
export async function applyEvents(
  tx: DatabaseTransactionConnection,
  projections: Projection[],
  events: ProjectedEvent[],
  applies: (projection: Projection, event: ProjectedEvent) => boolean = () => true,
): Promise<void> {
  const session = new ReadModelSession(tx);
  await applyToSession(session, projections, events, applies);
  try {
    await session.flush();
  } catch (error) {
    throw writeFailure(projections, events, error);
  }
}

/**
 * Applies events, in order, to the rows of a session, leaving the changes in it: each event goes
 * to the projections that handle its type (canHandle), in the projections' order.
 */
export async function applyToSession(
  session: ReadModelSession,
  projections: Projection[],
  events: ProjectedEvent[],
  applies: (projection: Projection, event: ProjectedEvent) => boolean = () => true,
): Promise<void> {
  await session.prefetch(rowsNamedBy(events, projections));
  const views = projections.map((projection) => [projection, session.for(projection)] as const);
  const handlers = new Map<string, Array<(typeof views)[number]>>();
  for (const event of events) {
    let handling = handlers.get(event.type);
    if (!handling) {
      handling = views.filter(([projection]) => !projection.canHandle || projection.canHandle.includes(event.type));
      handlers.set(event.type, handling);
    }
    for (const [projection, rows] of handling) {
      if (!applies(projection, event)) continue;
      try {
        await projection.apply(rows, event);
      } catch (error) {
        throw new ProjectionError(projection.name, event, error);
      }
    }
  }
}

/** Dry runs of a batch before it is applied: the first finds nearly every row the events do not name. */
const DRY_RUNS = 3;

/**
 * Loads the rows a batch will read that its events do not name (rowsNamedBy), each table's in the
 * same one statement: keys made from other rows, such as a month's money totals from a ledger
 * entry's facility and date, or a lease's unit. The batch is applied first in a dry run
 * (ReadModelSession.dryRun), which notes the rows it would read instead of reading them one at a
 * time; those are loaded, and the dry run repeated while it finds more (a key made from a row just
 * loaded). A dry run that throws has found what it found. Whatever is still missed is read when the
 * batch is applied, as before: this only saves round trips inside the batch's transaction (at 200
 * commands/s they were 17 reads a batch, each waiting behind the API's work in this process).
 */
async function prefetchByDryRun(
  session: ReadModelSession,
  projections: Projection[],
  events: ProjectedEvent[],
  applies: (projection: Projection, event: ProjectedEvent) => boolean,
): Promise<void> {
  for (let run = 0; run < DRY_RUNS; run++) {
    let missed: Map<TableName, Set<string>>;
    try {
      const dry = session.dryRun();
      missed = dry.missed;
      await applyToSession(dry.session, projections, events, applies);
    } catch {
      // A projection refused a row the dry run took as missing: what was noted before is still wanted.
      // (Should the copy itself fail, nothing was noted, and the batch reads as it goes.)
      missed ??= new Map();
    }
    if (missed.size === 0) return;
    await session.prefetch(missed);
  }
}

/** Writing a batch's rows failed: laid at the door of the projection owning the table. */
export function writeFailure(projections: Projection[], events: ProjectedEvent[], error: unknown): ProjectionError {
  const owner = error instanceof TableWriteError ? projections.find((p) => (p.tables as string[]).includes(error.table)) : undefined;
  return new ProjectionError(owner?.name ?? projections.map((p) => p.name).join(', '), events.length === 1 ? events[0]! : null, error);
}

/**
 * The projections that advance together, in lanes: one that reads another's tables sees them as
 * of each event it applies, so a lane applies each event to all of its projections, in the order
 * given, before the next. A lane is a connected group of that relation; lanes share no table.
 * A projection failing on an event does not stop its whole lane: only itself and the projections
 * reading its tables are held there (heldBy), and the batch's lanes are made of the others.
 */
export function projectionLanes(projections: Projection[]): Projection[][] {
  const parent = projections.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i]!;
    return i;
  };
  const owner = new Map<string, number>();
  projections.forEach((p, i) => {
    for (const table of p.tables) owner.set(table, i);
  });
  projections.forEach((p, i) => {
    for (const table of p.reads ?? []) {
      const o = owner.get(table);
      if (o !== undefined) parent[root(i)] = root(o);
    }
  });
  const lanes = new Map<number, Projection[]>();
  projections.forEach((p, i) => {
    const lane = lanes.get(root(i));
    if (lane) lane.push(p);
    else lanes.set(root(i), [p]);
  });
  return [...lanes.values()];
}

/** The projections related to the named ones, directly or through another, in the given order; the named ones left out. */
function related(projections: Projection[], names: Iterable<string>, direction: 'readers' | 'sources'): Projection[] {
  const owner = new Map<string, string>();
  for (const p of projections) for (const table of p.tables) owner.set(table, p.name);
  const next = new Map<string, Set<string>>(projections.map((p) => [p.name, new Set()]));
  for (const p of projections) {
    for (const table of p.reads ?? []) {
      const o = owner.get(table);
      if (o === undefined || o === p.name) continue;
      if (direction === 'readers') next.get(o)!.add(p.name);
      else next.get(p.name)!.add(o);
    }
  }
  const start = new Set(names);
  const found = new Set<string>();
  const queue = [...start];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    for (const other of next.get(name) ?? []) {
      if (start.has(other) || found.has(other)) continue;
      found.add(other);
      queue.push(other);
    }
  }
  return projections.filter((p) => found.has(p.name));
}

/** The projections that read the named ones' tables, directly or through another (a reader of a reader), in the given order. */
export function projectionDependents(projections: Projection[], names: Iterable<string>): Projection[] {
  return related(projections, names, 'readers');
}

/** The projections whose tables the named ones read, directly or through another, in the given order. */
export function projectionSources(projections: Projection[], names: Iterable<string>): Projection[] {
  return related(projections, names, 'sources');
}

/**
 * The projections a failure holds at its event with the failing one: those that read its tables,
 * directly or through another, since they must see its tables as of each event they apply. The
 * projections it reads, and the rest of its lane, go on past the event.
 *
 * The trade-off accepted: a reader held behind its sources reads their tables as they are now,
 * not as of each event, when it catches up (an activity names a renter as the renter is named
 * now, not as then). `verify` may then report differences in its tables; rebuilding that
 * projection alone (rebuild.ts, `npm run ops -- rebuild --projection NAME`) applies it to its
 * sources as of each event again. Holding the whole lane instead held the invoices and the ledger
 * behind a failing activity feed, and the money commands' read-your-writes waits with them.
 *
 * An event this release cannot read stops every projection of the lane that has not passed it:
 * none of them can tell what it says.
 */
function heldBy(
  projections: Projection[],
  lane: Projection[],
  failure: ProjectionError & { event: EventRef },
  checkpoints: Map<string, Position | null>,
): string[] {
  const held = new Set(projectionDependents(projections, [failure.projection]).map((p) => p.name));
  if (failure.cause instanceof UnreadableEventError) {
    for (const p of lane) if (isAfter(failure.event.position, checkpoints.get(p.name) ?? null)) held.add(p.name);
  }
  held.delete(failure.projection);
  return projections.filter((p) => held.has(p.name)).map((p) => p.name);
}

export async function ensureCheckpoints(pool: DatabasePool, projections: Projection[]): Promise<void> {
  for (const p of projections) {
    await pool.query(sql.unsafe`INSERT INTO projection_checkpoints (name) VALUES (${p.name}) ON CONFLICT (name) DO NOTHING`);
  }
}

/** How long a failing projection waits before its next attempt: doubling from the first delay, up to the most. */
export interface RetryPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { firstDelayMs: 1000, maxDelayMs: 5 * 60_000 };

export function retryDelayMs(attempts: number, policy: RetryPolicy = DEFAULT_RETRY): number {
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, attempts - 1));
}

export interface RunnerOptions {
  retry?: RetryPolicy;
  /** The clock that decides when a failing projection is tried again (tests set it). */
  now?: () => Date;
  /** Told of each failure (with the event's id) and each recovery. */
  log?: (message: string, error?: unknown) => void;
}

/** One event of a batch as read: in its current shape, null for a type the read model ignores, or unreadable. */
interface BatchEntry {
  recorded: RecordedEvent;
  event: ProjectedEvent | null;
  unreadable?: UnreadableEventError;
}

function toEntry(recorded: RecordedEvent): BatchEntry {
  try {
    return { recorded, event: toProjectedEvent(recorded) };
  } catch (error) {
    return { recorded, event: null, unreadable: error instanceof UnreadableEventError ? error : new UnreadableEventError(recorded, error) };
  }
}

interface LaneProgress {
  /** Events of the batch the lane's checkpoints passed. */
  passed: number;
  /** The last of them. */
  through: Position | null;
  failure?: ProjectionError & { event: EventRef };
  /** The batch failed as a whole but every event of it applied alone: a failure that did not come back. */
  transient?: unknown;
}

/** Applies the entries to a lane in a savepoint: all of them, or none and an error. */
async function applyToLane(
  tx: DatabaseTransactionConnection,
  lane: Projection[],
  entries: BatchEntry[],
  checkpoints: Map<string, Position | null>,
): Promise<void> {
  const applies = (projection: Projection, position: Position) => isAfter(position, checkpoints.get(projection.name) ?? null);
  for (const entry of entries) {
    const first = entry.unreadable && lane.find((p) => applies(p, entry.recorded.position));
    if (first) throw new ProjectionError(first.name, entry.recorded, entry.unreadable);
  }
  const events = entries.map((e) => e.event).filter((event) => event !== null);
  await tx.transaction((savepoint) => applyEvents(savepoint, lane, events, (projection, event) => applies(projection, event.position)));
}

/**
 * Applies the lane's share of a batch. When the batch fails, the events are applied one at a
 * time (each in a savepoint) up to the one that fails: everything before it counts, and the
 * failure names that event and the projection.
 */
async function advanceLane(
  tx: DatabaseTransactionConnection,
  lane: Projection[],
  entries: BatchEntry[],
  checkpoints: Map<string, Position | null>,
): Promise<LaneProgress> {
  const start = laneStart(lane, checkpoints);
  const pending = entries.filter((entry) => isAfter(entry.recorded.position, start));
  if (pending.length === 0) return { passed: 0, through: null };
  try {
    await applyToLane(tx, lane, pending, checkpoints);
    return { passed: pending.length, through: pending.at(-1)!.recorded.position };
  } catch (batchError) {
    for (const [index, entry] of pending.entries()) {
      try {
        await applyToLane(tx, lane, [entry], checkpoints);
      } catch (error) {
        const failure =
          error instanceof ProjectionError && error.event
            ? (error as ProjectionError & { event: EventRef })
            : (new ProjectionError(lane[0]!.name, entry.recorded, error) as ProjectionError & { event: EventRef });
        return { passed: index, through: index > 0 ? pending[index - 1]!.recorded.position : null, failure };
      }
    }
    return { passed: pending.length, through: pending.at(-1)!.recorded.position, transient: batchError };
  }
}

/** Where a lane's next batch starts: its earliest checkpoint. */
function laneStart(lane: Projection[], checkpoints: Map<string, Position | null>): Position | null {
  return earliestPosition(lane.map((p) => checkpoints.get(p.name) ?? null));
}

/**
 * Applies one batch of new events to every lane of projections that is not waiting to retry a
 * failure, in one transaction that holds every checkpoint, advancing each lane's checkpoints with
 * its writes: all lanes in one session while nothing fails, else each lane in a savepoint (the
 * batch done again so). A lane that fails on an event keeps what it applied before that event and
 * records the failure (projection_failures: the event, the error, the attempts, when it is tried
 * again, and the projections it holds: those reading the failing one's tables). Until it is due,
 * the failing projection and those it holds are left out; the rest of the lane goes on past the
 * event in the next batch, and the other lanes in this one. Returns the most events any lane
 * passed; 0 means caught up, or nothing due. A runner that finds the checkpoints locked by another
 * runner returns 0 and leaves the work to it.
 */
export async function applyNextBatch(pool: DatabasePool, store: EventStore, projections: Projection[], options: RunnerOptions = {}): Promise<number> {
  return (await applyBatch(pool, store, projections, options, new Set())).passed;
}

/** What one batch did: the most events a lane passed, whether a lane read a full batch (more may wait right behind it), the event types passed, which projections failed, and when the first failing projection is due again. */
interface BatchOutcome {
  passed: number;
  full: boolean;
  types: Set<string>;
  nextAttemptAt: number | null;
  /** The projections that failed on an event in this batch (a failure recorded, new or again). */
  failed: string[];
  /**
   * How far the batch's reads of the log went: the newest event read, or the start when nothing
   * was (null: the log's beginning); undefined when it read nothing at all (another runner holds
   * the checkpoints, or every lane waits to retry a failure).
   */
  readThrough?: Position | null;
}

/** The quick way failed (a lane threw, or its writes were refused): the batch is done again lane by lane, each in a savepoint. */
class SharedSessionFailed extends Error {
  constructor(cause: unknown) {
    super(`the batch failed in one session: ${errorText(cause)}`, { cause });
    this.name = 'SharedSessionFailed';
  }
}

/**
 * Applies lanes that start at one position through one session, with no savepoint: lanes share
 * no table, so this is what applying each lane alone would do. Any failure aborts the whole
 * transaction (SharedSessionFailed), to be done again lane by lane. The changed rows are returned
 * as writes, for the batch to send with the checkpoints in one statement.
 */
async function advanceLanesTogether(
  tx: DatabaseTransactionConnection,
  lanes: Projection[][],
  entries: BatchEntry[],
  checkpoints: Map<string, Position | null>,
): Promise<{ progress: LaneProgress[]; writes: TableWrites }> {
  const applies = (projection: Projection, position: Position) => isAfter(position, checkpoints.get(projection.name) ?? null);
  const projections = lanes.flat();
  for (const entry of entries) {
    if (entry.unreadable && projections.some((p) => applies(p, entry.recorded.position))) throw new SharedSessionFailed(entry.unreadable);
  }
  const events = entries.map((e) => e.event).filter((event) => event !== null);
  const session = new ReadModelSession(tx);
  let writes: TableWrites;
  try {
    const selected = (projection: Projection, event: ProjectedEvent) => applies(projection, event.position);
    await session.prefetch(rowsNamedBy(events, projections));
    await prefetchByDryRun(session, projections, events, selected);
    await applyToSession(session, projections, events, selected);
    writes = await session.takeWrites();
  } catch (error) {
    throw new SharedSessionFailed(error);
  }
  const progress = lanes.map((lane) => {
    const start = laneStart(lane, checkpoints);
    const pending = entries.filter((entry) => isAfter(entry.recorded.position, start));
    return { passed: pending.length, through: pending.at(-1)?.recorded.position ?? null };
  });
  return { progress, writes };
}

/**
 * One batch. Unless a failing projection is due to be retried (or `oneByOne`), the lanes go through
 * one session without savepoints; should that fail, the transaction is rolled back and the batch is
 * done again lane by lane, each in a savepoint, so a failing lane is found and recorded and the
 * others go on. The projections in `resting` failed earlier in this catch-up: they (and those they
 * hold) are left out whatever their retry's due time, so that a retry policy of no delay cannot
 * keep a catch-up going round.
 */
async function applyBatch(
  pool: DatabasePool,
  store: EventStore,
  projections: Projection[],
  options: RunnerOptions,
  resting: ReadonlySet<string>,
  oneByOne = false,
): Promise<BatchOutcome> {
  let full = false;
  const names = sql.array(
    projections.map((p) => p.name),
    'text',
  );
  const told: Array<[string, unknown?]> = [];
  const failed: string[] = [];
  const types = new Set<string>();
  let retries = new Map<string, number>();
  let readThrough: Position | null | undefined;
  let passed: number;
  try {
    passed = await pool.transaction(async (tx) => {
      told.length = 0; // A transaction retried after a serialization failure tells only its last run.
      failed.length = 0;
      types.clear();
      readThrough = undefined;
      const rows = await tx.any(
        lockCheckpointsStatement`
          SELECT c.name, c.position_hi::text, c.position_lo::text, f.event_id, f.position_hi::text AS failed_hi, f.position_lo::text AS failed_lo,
            f.attempts, f.first_failed_at, f.next_attempt_at, f.holds
          FROM projection_checkpoints c LEFT JOIN projection_failures f ON f.projection = c.name
          WHERE c.name = ANY(${names})
          ORDER BY c.name FOR UPDATE OF c SKIP LOCKED`,
      );
      retries = new Map();
      if (rows.length < projections.length) return 0;
      const checkpoints = new Map(rows.map((r) => [r.name, toPosition(r)]));
      const failures: Failure[] = rows.flatMap((r) =>
        r.event_id === null || r.failed_hi === null || r.failed_lo === null || r.attempts === null || r.first_failed_at === null || r.next_attempt_at === null
          ? []
          : [
              {
                projection: r.name,
                event_id: r.event_id,
                position: { hi: BigInt(r.failed_hi), lo: BigInt(r.failed_lo) },
                attempts: r.attempts,
                first_failed_at: r.first_failed_at,
                next_attempt_at: r.next_attempt_at,
                holds: r.holds ?? [],
              },
            ],
      );
      const now = options.now?.() ?? new Date();
      // A failure not yet due holds its projection and those it holds (any reader of theirs too,
      // should the recorded list predate a projection that reads them); the others go on.
      const isDue = (f: Failure) => Date.parse(f.next_attempt_at) <= now.getTime() && !resting.has(f.projection);
      const stopped = [...resting, ...failures.filter((f) => !isDue(f)).flatMap((f) => [f.projection, ...f.holds])];
      const waiting = new Set([...stopped, ...projectionDependents(projections, stopped).map((p) => p.name)]);
      /** The failures due now whose projection nothing else holds: tried again in this batch. */
      const retried = failures.filter((f) => !waiting.has(f.projection));
      // A due failure held by another one is tried when that one is: its own due time says nothing.
      for (const f of failures) if (!isDue(f) || !waiting.has(f.projection)) retries.set(f.projection, Date.parse(f.next_attempt_at));
      const due = projectionLanes(projections.filter((p) => !waiting.has(p.name))).map((lane) => ({
        lane,
        failed: retried.filter((f) => lane.some((p) => p.name === f.projection)),
      }));
      // Lanes at one checkpoint (all of them, unless one is catching up after a failure) share one read.
      const reads = new Map<string, Promise<BatchEntry[]>>();
      const read = (start: Position | null) => {
        const key = start ? describePosition(start) : '';
        let batch = reads.get(key);
        if (!batch) {
          batch = store.readAll({ after: start, limit: BATCH_SIZE }).then((events) => {
            if (events.length >= BATCH_SIZE) full = true;
            const end = events.at(-1)?.position ?? start;
            if (readThrough === undefined || (end !== null && isAfter(end, readThrough))) readThrough = end;
            return events.map(toEntry);
          });
          reads.set(key, batch);
        }
        return batch;
      };
      const progress = new Map<Projection[], LaneProgress>();
      /** The rows the lanes applied together changed, not yet written (the lanes applied one by one wrote theirs). */
      const writes: TableWrites[] = [];
      if (oneByOne || retried.length > 0) {
        for (const { lane } of due) progress.set(lane, await advanceLane(tx, lane, await read(laneStart(lane, checkpoints)), checkpoints));
      } else {
        const byStart = new Map<string, Projection[][]>();
        for (const { lane } of due) {
          const start = laneStart(lane, checkpoints);
          const key = start ? describePosition(start) : '';
          byStart.set(key, [...(byStart.get(key) ?? []), lane]);
        }
        for (const lanes of byStart.values()) {
          const entries = await read(laneStart(lanes[0]!, checkpoints));
          const outcome = await advanceLanesTogether(tx, lanes, entries, checkpoints);
          for (const [i, lane] of lanes.entries()) progress.set(lane, outcome.progress[i]!);
          writes.push(outcome.writes);
        }
      }
      let most = 0;
      const advanced: Array<{ name: string; through: Position }> = [];
      for (const { lane, failed: retriedHere } of due) {
        const lanePassed = progress.get(lane)!;
        const through = lanePassed.through;
        if (through) {
          advanced.push(...lane.map((p) => ({ name: p.name, through })));
          const start = laneStart(lane, checkpoints);
          for (const entry of await read(start)) {
            if (isAfter(entry.recorded.position, start) && !isAfter(entry.recorded.position, through)) types.add(entry.recorded.type);
          }
        }
        if (lanePassed.transient)
          told.push([`projection batch of ${lane.map((p) => p.name).join(', ')} failed, then applied event by event`, lanePassed.transient]);
        const failure = lanePassed.failure;
        if (failure) {
          const previous = failures.find((f) => f.projection === failure.projection);
          const holds = heldBy(projections, lane, failure, checkpoints);
          const recorded = await recordFailure(tx, failure, holds, previous, now, options.retry ?? DEFAULT_RETRY);
          told.push(recorded.told);
          retries.set(failure.projection, recorded.next.getTime());
          failed.push(failure.projection);
        }
        // A failure is past once its projection has applied the event; one whose lane stopped
        // before it (another projection failing first) is tried again in the next batch.
        const reached = (name: string) => {
          const checkpoint = checkpoints.get(name) ?? null;
          return through !== null && isAfter(through, checkpoint) ? through : checkpoint;
        };
        const recovered = retriedHere.filter((f) => {
          const position = reached(f.projection);
          return f.projection !== failure?.projection && position !== null && !isAfter(f.position, position);
        });
        if (recovered.length > 0) {
          await tx.query(
            sql.unsafe`DELETE FROM projection_failures WHERE projection = ANY(${sql.array(
              recovered.map((f) => f.projection),
              'text',
            )})`,
          );
          for (const f of recovered) {
            retries.delete(f.projection);
            const attempts = `${f.attempts} failed attempt${f.attempts === 1 ? '' : 's'}`;
            told.push([`projection ${f.projection} recovered: event ${f.event_id} applied after ${attempts}`]);
          }
        }
        most = Math.max(most, lanePassed.passed);
      }
      // One statement for every lane; never back: a projection rebuilt alone may be ahead of its lane.
      const advance =
        advanced.length === 0
          ? null
          : sql.unsafe`
          UPDATE projection_checkpoints c SET position_hi = v.hi, position_lo = v.lo, updated_at = now()
          FROM unnest(
            ${sql.array(
              advanced.map((a) => a.name),
              'text',
            )},
            ${sql.array(
              advanced.map((a) => a.through.hi.toString()),
              'numeric',
            )},
            ${sql.array(
              advanced.map((a) => a.through.lo.toString()),
              'numeric',
            )}
          ) AS v(name, hi, lo)
          WHERE c.name = v.name AND (c.position_hi IS NULL OR (c.position_hi, c.position_lo) < (v.hi, v.lo))`;
      // The lanes' rows and their checkpoints in one statement (more only when a table is written
      // twice). A refused write fails the batch, which is then done again lane by lane, each
      // lane's tables written one statement each so that the failure names its table.
      try {
        for (const statement of TableWrites.joined(writes, advance)) await tx.query(statement);
      } catch (error) {
        if (writes.some((w) => w.size > 0)) throw new SharedSessionFailed(error);
        throw error;
      }
      return most;
    });
  } catch (error) {
    if (error instanceof SharedSessionFailed && !oneByOne) return applyBatch(pool, store, projections, options, resting, true);
    throw error;
  }
  for (const [message, error] of told) options.log?.(message, error);
  const nextAttemptAt = retries.size > 0 ? Math.min(...retries.values()) : null;
  return { passed, full: passed > 0 && full, types, nextAttemptAt, failed, readThrough };
}

/** Records (or counts again) the projection's failure on the event, with the projections it holds there. */
async function recordFailure(
  tx: DatabaseTransactionConnection,
  failure: ProjectionError & { event: EventRef },
  holds: string[],
  previous: Failure | undefined,
  now: Date,
  retry: RetryPolicy,
): Promise<{ told: [string, unknown]; next: Date }> {
  const again = previous?.projection === failure.projection && previous.event_id === failure.event.id;
  const attempts = again ? previous.attempts + 1 : 1;
  const delay = retryDelayMs(attempts, retry);
  const next = new Date(now.getTime() + delay);
  const cause = failure.cause ?? failure;
  await tx.query(sql.unsafe`
    INSERT INTO projection_failures
      (projection, event_id, event_type, position_hi, position_lo, error, attempts, first_failed_at, last_failed_at, next_attempt_at, holds)
    VALUES (${failure.projection}, ${failure.event.id}, ${failure.event.type}, ${failure.event.position.hi.toString()}, ${failure.event.position.lo.toString()},
      ${errorText(cause).slice(0, ERROR_TEXT_LIMIT)}, ${attempts}, ${again ? previous.first_failed_at : now.toISOString()}, ${now.toISOString()},
      ${next.toISOString()}, ${sql.array(holds, 'text')})
    ON CONFLICT (projection) DO UPDATE SET
      event_id = EXCLUDED.event_id, event_type = EXCLUDED.event_type, position_hi = EXCLUDED.position_hi, position_lo = EXCLUDED.position_lo,
      error = EXCLUDED.error, attempts = EXCLUDED.attempts, first_failed_at = EXCLUDED.first_failed_at,
      last_failed_at = EXCLUDED.last_failed_at, next_attempt_at = EXCLUDED.next_attempt_at, holds = EXCLUDED.holds`);
  const held = holds.length > 0 ? `; holding back ${holds.join(', ')} at the same event` : '';
  return {
    told: [
      `projection ${failure.projection} failed on event ${failure.event.id} (${failure.event.type} at ${describePosition(failure.event.position)}), ` +
        `attempt ${attempts}; next attempt in ${delay / 1000} s, at ${next.toISOString()}${held}: ${errorText(cause)}`,
      cause,
    ],
    next,
  };
}

/**
 * Applies batches until every lane has caught up with the log or waits to retry a failure. A batch
 * that read less than a full batch reached the end of what the log shows: no second, empty pass
 * (an event appended since comes with its own wake-up; one committed but not yet readable, behind
 * an older open transaction, is reported as heldBack). A batch that recorded a failure is followed
 * by another at once: the failing lane stopped at the event for all of its projections, and those
 * the failure does not hold go on past it now, not at the next wake-up.
 */
export async function catchUp(pool: DatabasePool, store: EventStore, projections: Projection[], options: RunnerOptions = {}): Promise<number> {
  return (await catchUpReporting(pool, store, projections, options)).applied;
}

/** What a catch-up did, for the projector service: so it needs no query of its own to decide what to do next. */
export interface CatchUpReport {
  /** The most events a lane passed, summed over the batches. */
  applied: number;
  /** The types of the events passed. */
  types: Set<string>;
  /** When the first failing projection is due to be tried again (ms since the epoch); null when none is failing, or another runner holds the checkpoints. */
  nextAttemptAt: number | null;
  /**
   * Whether the log holds committed events this catch-up could not read yet: an older transaction
   * of the database was still open (the store reads below it, so that nothing committed later is
   * passed over). No wake-up comes when it ends, since it need not be an append: the caller tries
   * again shortly.
   */
  heldBack: boolean;
}

/** catchUp, telling what it applied and when a failing projection is due again. */
export async function catchUpReporting(pool: DatabasePool, store: EventStore, projections: Projection[], options: RunnerOptions = {}): Promise<CatchUpReport> {
  const report: CatchUpReport = { applied: 0, types: new Set(), nextAttemptAt: null, heldBack: false };
  /** Each projection fails at most once per catch-up: ends the loop whatever the retry policy. */
  const resting = new Set<string>();
  for (;;) {
    const batch = await applyBatch(pool, store, projections, options, resting);
    report.applied += batch.passed;
    for (const type of batch.types) report.types.add(type);
    report.nextAttemptAt = batch.nextAttemptAt;
    for (const name of batch.failed) resting.add(name);
    if (batch.full || batch.failed.length > 0) continue;
    if (batch.readThrough !== undefined) {
      const newest = await store.newestPosition();
      report.heldBack = newest !== null && isAfter(newest, batch.readThrough);
    }
    return report;
  }
}

/**
 * Catches up until the projections have passed `position`. The store shows an event only once
 * every older transaction on the server has ended, so one pass may not reach it yet. A
 * projection failing on an event ends the wait at once, with that failure.
 */
export async function catchUpTo(pool: DatabasePool, store: EventStore, projections: Projection[], position: Position, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await catchUp(pool, store, projections);
    const failed = (await failedProjections(pool)).find((f) => projections.some((p) => p.name === f.projection));
    if (failed) throw new Error(`The ${failed.projection} projection failed on event ${failed.eventId} (${failed.eventType}): ${failed.error}`);
    const reached = await projectedPosition(pool);
    if (reached && comparePositions(reached, position) >= 0) return;
    if (Date.now() > deadline) throw new Error(`the projections did not reach ${describePosition(position)} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
