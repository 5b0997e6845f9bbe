import { comparePositions, type Position } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

const CheckpointRow = z.object({ position_hi: z.string().nullable(), position_lo: z.string().nullable() });

/** The position every projection of the read model has passed, or null when one has seen nothing. */
export async function projectedPosition(pool: DatabasePool): Promise<Position | null> {
  const rows = await pool.any(sql.type(CheckpointRow)`SELECT position_hi::text, position_lo::text FROM projection_checkpoints`);
  if (rows.length === 0) return null;
  let min: Position | null = null;
  for (const row of rows) {
    if (row.position_hi === null || row.position_lo === null) return null;
    const p = { hi: BigInt(row.position_hi), lo: BigInt(row.position_lo) };
    if (min === null || comparePositions(p, min) < 0) min = p;
  }
  return min;
}

/**
 * Read-your-writes: resolves true once the read model has passed `position`, false when
 * `timeoutMs` runs out first (the write stands; the read model is just late).
 */
export async function waitForProjections(pool: DatabasePool, position: Position, timeoutMs = 2000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 5; ; delay = Math.min(delay * 2, 50)) {
    const reached = await projectedPosition(pool);
    if (reached && comparePositions(reached, position) >= 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, delay));
  }
}
