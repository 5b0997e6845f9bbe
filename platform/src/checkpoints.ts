import { comparePositions, type Position } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

/** A checkpoint row's position as selected (`position_hi::text, position_lo::text`); null before the first event. */
export const CheckpointRow = z.object({ position_hi: z.string().nullable(), position_lo: z.string().nullable() });

export function toPosition(row: z.infer<typeof CheckpointRow>): Position | null {
  return row.position_hi === null || row.position_lo === null ? null : { hi: BigInt(row.position_hi), lo: BigInt(row.position_lo) };
}

/** The earliest of the checkpoints, or null when there are none or one has seen nothing. */
function earliest(rows: readonly z.infer<typeof CheckpointRow>[]): Position | null {
  let min: Position | null = null;
  for (const row of rows) {
    const p = toPosition(row);
    if (p === null) return null;
    if (min === null || comparePositions(p, min) < 0) min = p;
  }
  return min;
}

/** The position every projection of the read model has passed, or null when one has seen nothing. */
export async function projectedPosition(pool: DatabasePool): Promise<Position | null> {
  return earliest(await pool.any(sql.type(CheckpointRow)`SELECT position_hi::text, position_lo::text FROM projection_checkpoints`));
}

/** A projection the runner could not apply an event to (projection_failures), and when it tries again. */
export interface FailedProjection {
  projection: string;
  eventId: string;
  eventType: string;
  position: Position;
  /** The error's message: may quote data, so it belongs in the log and to staff, not to public answers. */
  error: string;
  attempts: number;
  firstFailedAt: string;
  lastFailedAt: string;
  nextAttemptAt: string;
  /** The projections held at the same event with it. */
  holds: string[];
}

/** One line naming a failing projection, its event and its attempts, without the error's text. */
export function describeFailure(f: { projection: string; eventId: string; eventType: string; attempts: number; nextAttemptAt: string; holds: string[] }) {
  const held = f.holds.length > 0 ? `, holding back ${f.holds.join(', ')}` : '';
  return `the ${f.projection} projection fails on event ${f.eventId} (${f.eventType}), ${f.attempts} attempt${f.attempts === 1 ? '' : 's'} so far, next at ${f.nextAttemptAt}${held}`;
}

const FailureRow = z.object({
  projection: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  position_hi: z.string(),
  position_lo: z.string(),
  error: z.string(),
  attempts: z.number(),
  first_failed_at: z.string(),
  last_failed_at: z.string(),
  next_attempt_at: z.string(),
  holds: z.array(z.string()),
});

export async function failedProjections(pool: DatabasePool): Promise<FailedProjection[]> {
  const rows = await pool.any(sql.type(FailureRow)`
    SELECT projection, event_id, event_type, position_hi::text, position_lo::text, error, attempts,
           first_failed_at, last_failed_at, next_attempt_at, holds
    FROM projection_failures ORDER BY first_failed_at, projection`);
  return rows.map((row) => ({
    projection: row.projection,
    eventId: row.event_id,
    eventType: row.event_type,
    position: { hi: BigInt(row.position_hi), lo: BigInt(row.position_lo) },
    error: row.error,
    attempts: row.attempts,
    firstFailedAt: row.first_failed_at,
    lastFailedAt: row.last_failed_at,
    nextAttemptAt: row.next_attempt_at,
    holds: row.holds,
  }));
}

/**
 * Read-your-writes: resolves true once the read model has passed `position`, false when
 * `timeoutMs` runs out first (the write stands; the read model is just late). A projection that
 * is failing on an event, and those it holds back, are not waited for: they pass nothing until
 * the failure clears (retried after 1 s at the earliest, then ever later), so waiting for them
 * would make every command sit out its full timeout, whatever screen it returns to. The health
 * answer names them instead.
 */
export async function waitForProjections(pool: DatabasePool, position: Position, timeoutMs = 2000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 5; ; delay = Math.min(delay * 2, 50)) {
    const rows = await pool.any(sql.type(CheckpointRow.extend({ failing: z.boolean() }))`
      SELECT c.position_hi::text, c.position_lo::text,
             EXISTS (SELECT 1 FROM projection_failures f WHERE f.projection = c.name OR c.name = ANY(f.holds)) AS failing
      FROM projection_checkpoints c`);
    const healthy = rows.filter((row) => !row.failing);
    const reached = earliest(healthy);
    if (rows.length > 0 && (healthy.length === 0 || (reached && comparePositions(reached, position) >= 0))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, delay));
  }
}

/**
 * Resolves true once the one projection `name` has passed `position`, false when `timeoutMs` runs
 * out first, also while it is failing: a write-side step that plans from that projection's tables
 * must not plan from tables that are behind.
 */
export async function waitForProjection(pool: DatabasePool, name: string, position: Position, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 5; ; delay = Math.min(delay * 2, 50)) {
    const row = await pool.maybeOne(sql.type(CheckpointRow)`SELECT position_hi::text, position_lo::text FROM projection_checkpoints WHERE name = ${name}`);
    const reached = row ? toPosition(row) : null;
    if (reached && comparePositions(reached, position) >= 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, delay));
  }
}
