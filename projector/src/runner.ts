import { isEventType, upcast } from '@storage/contracts/events';
import { comparePositions, type EventStore, type Position, type RecordedEvent } from '@storage/eventstore/port';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { projectedPosition } from '@storage/platform/checkpoints';
import type { ProjectedEvent, Projection } from './projection.ts';

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
    for (const recorded of batch) {
      const event = toProjectedEvent(recorded);
      if (!event) continue;
      for (const projection of projections) {
        if (isAfter(event.position, checkpoints.get(projection.name) ?? null)) await projection.apply(tx, event);
      }
    }
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
