import { randomUUID } from 'node:crypto';
import type { CommandContext } from '@storage/domain/commands/handle';
import { expireReservation } from '@storage/domain/reservations/commands';
import type { EventStore, Position } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

const DAY_MS = 24 * 60 * 60 * 1000;

const CandidateRow = z.object({ id: z.string() });

export interface ExpiryRun {
  expired: number;
  position: Position | null;
}

/**
 * Expires every reservation not converted within the hold, and offers its unit again. The read
 * model nominates them; each reservation's stream decides (one converted meanwhile stays).
 */
export async function expireReservations(deps: { pool: DatabasePool; store: EventStore }, now: Date, holdDays: number): Promise<ExpiryRun> {
  // A fresh correlation id per run; each event names the one it was decided on as its causation.
  const ctx: CommandContext = { store: deps.store, actor: { type: 'system' }, correlationId: randomUUID(), now, causedByStreamHead: true };
  const submittedBefore = new Date(now.getTime() - holdDays * DAY_MS).toISOString();
  const candidates = await deps.pool.anyFirst(sql.type(CandidateRow)`
    SELECT id::text FROM reservations WHERE status = 'submitted' AND submitted_at <= ${submittedBefore} ORDER BY submitted_at`);
  const run: ExpiryRun = { expired: 0, position: null };
  for (const reservationId of candidates) {
    const result = await expireReservation(ctx, reservationId);
    if (result.position) {
      run.expired++;
      run.position = result.position;
    }
  }
  return run;
}
