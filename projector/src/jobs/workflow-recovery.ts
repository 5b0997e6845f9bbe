import { randomUUID } from 'node:crypto';
import type { CommandContext } from '@storage/domain/commands/handle';
import { type Recovered, recoverConversion, recoverUnit } from '@storage/domain/workflows/recovery';
import type { EventStore, Position } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

const CandidateRow = z.object({ id: z.string() });

export interface RecoveryRun {
  /** How many workflows were finished or undone, by what was done. */
  actions: Partial<Record<Recovered['action'], number>>;
  recovered: number;
  position: Position | null;
}

/**
 * Finishes or undoes the workflows across aggregates that stopped half-way more than `graceMs`
 * before `now`: move-ins being converted, units occupied by a lease that never started, units
 * held for a reservation that is not open. The read model nominates; each stream decides
 * (api/src/workflows/recovery.ts). Run by the projector every minute and at its start; tests
 * call it with a grace of 0.
 */
export async function recoverWorkflows(deps: { pool: DatabasePool; store: EventStore }, now: Date, graceMs: number): Promise<RecoveryRun> {
  // A fresh correlation id per run; each event names the one it was decided on as its causation.
  const ctx: CommandContext = { store: deps.store, actor: { type: 'system' }, correlationId: randomUUID(), now, causedByStreamHead: true };
  const settledBefore = new Date(now.getTime() - graceMs);
  const cutoff = settledBefore.toISOString();
  const conversions = await deps.pool.anyFirst(sql.type(CandidateRow)`
    SELECT id::text FROM reservations WHERE status = 'converting' AND updated_at <= ${cutoff} ORDER BY updated_at`);
  const units = await deps.pool.anyFirst(sql.type(CandidateRow)`
    SELECT u.id::text FROM units u
    WHERE u.updated_at <= ${cutoff} AND (
      (u.status = 'occupied' AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.unit_id = u.id AND l.is_active))
      OR (u.status = 'reserved' AND NOT EXISTS (SELECT 1 FROM reservations r WHERE r.unit_id = u.id AND r.status IN ('submitted', 'converting'))))
    ORDER BY u.updated_at`);
  const run: RecoveryRun = { actions: {}, recovered: 0, position: null };
  const count = (result: Recovered) => {
    if (result.action === 'none') return;
    run.recovered++;
    run.actions[result.action] = (run.actions[result.action] ?? 0) + 1;
    if (result.position) run.position = result.position;
  };
  for (const reservationId of conversions) count(await recoverConversion(ctx, reservationId, settledBefore));
  for (const unitId of units) count(await recoverUnit(ctx, unitId, settledBefore));
  return run;
}
