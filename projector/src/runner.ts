import { isEventType, upcast } from '@storage/contracts/events';
import { comparePositions, type EventStore, type Position, type RecordedEvent } from '@storage/eventstore/port';
import { projectedPosition } from '@storage/platform/checkpoints';
import { type DatabasePool, type DatabaseTransactionConnection, sql } from 'slonik';
import { z } from 'zod';
import type { ProjectedEvent, Projection } from './projection.ts';
import { ReadModelSession } from './read-model-session.ts';
import type { TableName } from './read-model-tables.ts';

const BATCH_SIZE = 500;

const CheckpointRow = z.object({
  name: z.string(),
  position_hi: z.string().nullable(),
  position_lo: z.string().nullable(),
});

function toPosition(row: z.infer<typeof CheckpointRow>): Position | null {
  return row.position_hi === null || row.position_lo === null ? null : { hi: BigInt(row.position_hi), lo: BigInt(row.position_lo) };
}

function isAfter(position: Position, checkpoint: Position | null): boolean {
  return checkpoint === null || comparePositions(position, checkpoint) > 0;
}

/** The event in its current shape, or null for a type the read model does not know. */
export function toProjectedEvent(recorded: RecordedEvent): ProjectedEvent | null {
  if (!isEventType(recorded.type)) return null;
  return {
    ...upcast(recorded.type, recorded.metadata.schemaVersion, recorded.data),
    id: recorded.id,
    streamName: recorded.streamName,
    metadata: recorded.metadata,
    position: recorded.position,
    recordedAt: recorded.recordedAt,
  } as ProjectedEvent;
}

/** The tables whose rows an event names by these ids: loaded for a whole batch at once. */
const tablesKeyedBy: Record<string, TableName[]> = {
  customerId: ['customers', 'metrics_customers'],
  unitId: ['units', 'metrics_units'],
  lockId: ['locks'],
  invoiceId: ['invoices', 'metrics_invoices'],
  leaseId: ['leases'],
  facilityId: ['facilities', 'gateway_keys'],
  reservationId: ['reservations'],
  staffId: ['staff'],
  notificationId: ['notifications'],
  scope: ['settings'],
};

function rowsNamedBy(events: ProjectedEvent[], projections: Projection[]): Map<TableName, Set<string>> {
  const owned = new Set<string>(projections.flatMap((p) => p.tables));
  const keys = new Map<TableName, Set<string>>();
  for (const event of events) {
    for (const [field, tables] of Object.entries(tablesKeyedBy)) {
      const id = (event.data as Record<string, unknown>)[field];
      if (typeof id !== 'string') continue;
      for (const table of tables) {
        if (!owned.has(table)) continue;
        let ids = keys.get(table);
        if (!ids) {
          ids = new Set();
          keys.set(table, ids);
        }
        ids.add(id);
      }
    }
  }
  return keys;
}

/**
 * Applies events, in order, to the projections that `applies` selects, through one session:
 * the rows the events name are read up front, and the changed rows are written back at the end.
 */
export async function applyEvents(
  tx: DatabaseTransactionConnection,
  projections: Projection[],
  events: ProjectedEvent[],
  applies: (projection: Projection, event: ProjectedEvent) => boolean = () => true,
): Promise<void> {
  const session = new ReadModelSession(tx);
  await session.prefetch(rowsNamedBy(events, projections));
  const views = projections.map((projection) => [projection, session.for(projection)] as const);
  for (const event of events) {
    for (const [projection, rows] of views) if (applies(projection, event)) await projection.apply(rows, event);
  }
  await session.flush();
}

export async function ensureCheckpoints(pool: DatabasePool, projections: Projection[]): Promise<void> {
  for (const p of projections) {
    await pool.query(sql.unsafe`INSERT INTO projection_checkpoints (name) VALUES (${p.name}) ON CONFLICT (name) DO NOTHING`);
  }
}

/**
 * Applies one batch of new events to every projection, advancing each checkpoint in the same
 * transaction as its table writes. Returns how many events it read; 0 means caught up. A runner
 * that finds the checkpoints locked by another runner returns 0 and leaves the work to it.
 */
export async function applyNextBatch(pool: DatabasePool, store: EventStore, projections: Projection[]): Promise<number> {
  return pool.transaction(async (tx) => {
    const rows = await tx.any(
      sql.type(CheckpointRow)`
        SELECT name, position_hi::text, position_lo::text FROM projection_checkpoints
        WHERE name = ANY(${sql.array(
          projections.map((p) => p.name),
          'text',
        )})
        ORDER BY name FOR UPDATE SKIP LOCKED`,
    );
    if (rows.length < projections.length) return 0;
    const checkpoints = new Map(rows.map((r) => [r.name, toPosition(r)]));
    const earliest = [...checkpoints.values()].reduce<Position | null | undefined>(
      (min, c) => (min === undefined ? c : c === null || min === null ? null : comparePositions(c, min) < 0 ? c : min),
      undefined,
    );
    const batch = await store.readAll({ after: earliest ?? null, limit: BATCH_SIZE });
    if (batch.length === 0) return 0;
    const events = batch.map(toProjectedEvent).filter((event) => event !== null);
    await applyEvents(tx, projections, events, (projection, event) => isAfter(event.position, checkpoints.get(projection.name) ?? null));
    const last = batch[batch.length - 1]!.position;
    await tx.query(sql.unsafe`
      UPDATE projection_checkpoints SET position_hi = ${last.hi.toString()}, position_lo = ${last.lo.toString()}, updated_at = now()
      WHERE name = ANY(${sql.array(
        projections.map((p) => p.name),
        'text',
      )})`);
    return batch.length;
  });
}

/** Applies batches until the projections have caught up with the log. */
export async function catchUp(pool: DatabasePool, store: EventStore, projections: Projection[]): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await applyNextBatch(pool, store, projections);
    total += n;
    if (n === 0) return total;
  }
}

/**
 * Catches up until the projections have passed `position`. The store shows an event only once
 * every older transaction on the server has ended, so one pass may not reach it yet.
 */
export async function catchUpTo(pool: DatabasePool, store: EventStore, projections: Projection[], position: Position, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await catchUp(pool, store, projections);
    const reached = await projectedPosition(pool);
    if (reached && comparePositions(reached, position) >= 0) return;
    if (Date.now() > deadline) throw new Error(`the projections did not reach ${position.hi}/${position.lo} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
