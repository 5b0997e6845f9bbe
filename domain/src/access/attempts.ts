import { type DomainEvent, type EventData, streams } from '@storage/contracts/events';
import type { EventStore, Position } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { todayIn } from '../billing/calendar.ts';
import { facilityTimeZone } from '../billing/settings.ts';
import { derivedId } from '../commands/derived-id.ts';
import { type CommandContext, handleCommand } from '../commands/handle.ts';
import { leaseOfGateCode } from './gate-codes.ts';

// What a facility's gateway reports: who tried a gate code or a lock, granted or denied and why.
// Each day's attempts (facility zone) are one stream; an attempt the gateway sends again (a
// retried batch) is recognised by its id and recorded once. The code itself is never kept: it
// only finds the lease and renter it belongs to.

export type ReportedAttempt = {
  /** The gateway's own id of the attempt (a retry sends the same); absent: the batch's place. */
  id?: string | undefined;
  at: string;
  via: 'gate_code' | 'lock';
  code?: string | undefined;
  lockId?: string | undefined;
  granted: boolean;
  reason: string;
};

type AttemptLog = Set<string>;
const attemptLogAggregate = {
  initial: new Set<string>() as AttemptLog,
  evolve(state: AttemptLog, event: DomainEvent): AttemptLog {
    if (event.type !== 'access_attempted') return state;
    const next = new Set(state);
    next.add(event.data.attemptId);
    return next;
  },
};

const LockLeaseRow = z.object({ lease_id: z.string().nullable(), customer_id: z.string().nullable() });

/** The lease a code belongs to at the facility (through the code's claim: no read table holds codes). */
async function leaseOfCode(store: EventStore, facilityId: string, code: string) {
  const lease = await leaseOfGateCode(store, facilityId, code);
  return lease ? { lease_id: lease.leaseId, customer_id: lease.customerId } : null;
}

/** The renter of the lock's unit (its active lease), if any. */
async function leaseOfLock(pool: DatabasePool, lockId: string) {
  return pool.maybeOne(sql.type(LockLeaseRow)`
    SELECT l.id::text AS lease_id, l.customer_id::text AS customer_id
    FROM locks k JOIN leases l ON l.unit_id = k.unit_id AND l.is_active
    WHERE k.id = ${lockId} ORDER BY l.start_date DESC LIMIT 1`);
}

/** Records a batch of attempts; `batchId` names the batch when attempts carry no id of their own. */
export async function recordAccessAttempts(
  ctx: CommandContext,
  pool: DatabasePool,
  facilityId: string,
  attempts: readonly ReportedAttempt[],
  batchId: string,
): Promise<{ recorded: number; position: Position | null }> {
  const timeZone = await facilityTimeZone(ctx.store, facilityId);
  const byDay = new Map<string, EventData<'access_attempted'>[]>();
  for (const [index, attempt] of attempts.entries()) {
    const found =
      attempt.via === 'gate_code' && attempt.code
        ? await leaseOfCode(ctx.store, facilityId, attempt.code)
        : attempt.lockId
          ? await leaseOfLock(pool, attempt.lockId)
          : null;
    const data: EventData<'access_attempted'> = {
      attemptId: derivedId('access-attempt', facilityId, attempt.id ?? `${batchId}:${index}`),
      facilityId,
      lockId: attempt.lockId ?? null,
      leaseId: found?.lease_id ?? null,
      customerId: found?.customer_id ?? null,
      via: attempt.via,
      granted: attempt.granted,
      reason: attempt.reason,
      at: new Date(attempt.at).toISOString(),
    };
    const day = todayIn(timeZone, new Date(attempt.at));
    byDay.set(day, [...(byDay.get(day) ?? []), data]);
  }
  let recorded = 0;
  let position: Position | null = null;
  for (const [day, data] of byDay) {
    const result = await handleCommand(ctx, streams.accessLog(facilityId, day), attemptLogAggregate, (seen) => {
      const fresh = new Set<string>();
      return data
        .filter((d) => !seen.has(d.attemptId) && !fresh.has(d.attemptId) && fresh.add(d.attemptId))
        .map((d): DomainEvent => ({ type: 'access_attempted', data: d }));
    });
    recorded += result.events.length;
    position = result.position ?? position;
  }
  return { recorded, position };
}
