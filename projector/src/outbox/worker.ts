import { withGateCode } from '@storage/domain/messages/compose';
import type { EventStore } from '@storage/eventstore/port';
import type { Mailer } from '@storage/platform/mail/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { onOutboxWake } from './signal.ts';

// The outbox worker: delivers the due pending messages through the mail port, with retries.
//
// A row is claimed in a short transaction (FOR UPDATE SKIP LOCKED, so two workers never take the
// same row) by counting the attempt and moving its next attempt a claim period ahead; it is sent
// outside any transaction (an open transaction would hold the event store's readers back), then
// marked sent, or given its next attempt after a growing delay (1 min doubling to 1 h), or failed
// after the last attempt. A crash after the server took the message and before it was marked
// sends it again once the claim runs out (at least once; the Message-ID, the row's id, lets a
// receiving server tell the repeat): each crash can repeat a message at most once.

export interface OutboxPolicy {
  /** The delay after the first failed attempt (default 1 min); it doubles with each failure. */
  retryBaseMs: number;
  /** The longest delay between attempts (default 1 h). */
  retryMaxMs: number;
  /** Attempts before the message is failed (default 8). */
  maxAttempts: number;
  /** How long a claimed row is left to its sender before another may take it (default 5 min). */
  claimMs: number;
  /** How often the worker looks for due rows without a wake-up (default 5 s). */
  pollMs: number;
}

export const defaultOutboxPolicy: OutboxPolicy = { retryBaseMs: 60_000, retryMaxMs: 3_600_000, maxAttempts: 8, claimMs: 300_000, pollMs: 5_000 };

/** The delay before the attempt after failed attempt `attempt` (1-based). */
export function retryDelayMs(policy: Pick<OutboxPolicy, 'retryBaseMs' | 'retryMaxMs'>, attempt: number): number {
  return Math.min(policy.retryMaxMs, policy.retryBaseMs * 2 ** Math.max(0, attempt - 1));
}

const ClaimedRow = z.object({
  id: z.string(),
  to_address: z.string(),
  subject: z.string(),
  body: z.string(),
  gate_code_lease_id: z.string().nullable(),
  attempts: z.number(),
});

const BATCH = 20;

// The worker's polls run every few seconds and after every batch: named statements, planned once per connection.
const claimStatement = sql.prepared('outbox_claim_due', ClaimedRow);

async function claimDue(pool: DatabasePool, policy: OutboxPolicy) {
  return pool.any(claimStatement`
    UPDATE outbox_messages m SET attempts = m.attempts + 1, next_attempt_at = now() + ${`${policy.claimMs} milliseconds`}::interval
    FROM (
      SELECT id FROM outbox_messages WHERE status = 'pending' AND next_attempt_at <= now()
      ORDER BY next_attempt_at, id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
    ) due
    WHERE m.id = due.id
    RETURNING m.id::text, m.to_address, m.subject, m.body, m.gate_code_lease_id::text, m.attempts`);
}

async function recordAttempt(pool: DatabasePool, row: z.infer<typeof ClaimedRow>, error: string | null): Promise<void> {
  await pool.query(sql.unsafe`
    INSERT INTO outbox_attempts (message_id, attempt, attempted_at, ok, error)
    VALUES (${row.id}, ${row.attempts}, now(), ${error === null}, ${error}) ON CONFLICT DO NOTHING`);
}

/** Sends what is due now; returns how many rows it handled. */
export async function deliverDue(
  { pool, store }: { pool: DatabasePool; store: EventStore },
  mailer: Mailer,
  policy: OutboxPolicy = defaultOutboxPolicy,
  log?: (message: string, error?: unknown) => void,
) {
  const rows = await claimDue(pool, policy);
  for (const row of rows) {
    try {
      // A gate code is filled in now: it never rests in the table.
      const [subject, text] = await Promise.all([row.subject, row.body].map((part) => withGateCode(store, part, row.gate_code_lease_id)));
      await mailer.send({ id: row.id, to: row.to_address, subject: subject!, text: text! });
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      const last = row.attempts >= policy.maxAttempts;
      await recordAttempt(pool, row, reason);
      await pool.query(sql.unsafe`
        UPDATE outbox_messages SET status = ${last ? 'failed' : 'pending'}, last_error = ${reason},
          next_attempt_at = CASE WHEN ${last} THEN NULL ELSE now() + ${`${retryDelayMs(policy, row.attempts)} milliseconds`}::interval END
        WHERE id = ${row.id} AND status = 'pending' AND attempts = ${row.attempts}`);
      log?.(`message ${row.id} not delivered (attempt ${row.attempts}${last ? ', the last' : ''})`, error);
      continue;
    }
    await recordAttempt(pool, row, null);
    await pool.query(sql.unsafe`
      UPDATE outbox_messages SET status = 'sent', sent_at = now(), next_attempt_at = NULL, last_error = NULL, transport = ${mailer.transport}
      WHERE id = ${row.id} AND status = 'pending'`);
  }
  return rows.length;
}

const NextDue = z.object({ due_in_ms: z.number().nullable() });
const nextDueStatement = sql.prepared('outbox_next_due', NextDue);

export interface OutboxWorker {
  /** Looks for due rows now (tests; the messages reaction wakes it the same way). */
  wake(): void;
  stop(): Promise<void>;
}

/** Runs until stopped: sends what is due, then sleeps until the next row is due, a wake-up, or the poll. */
export function startOutboxWorker(options: {
  pool: DatabasePool;
  store: EventStore;
  mailer: Mailer;
  policy?: Partial<OutboxPolicy>;
  log?: (message: string, error?: unknown) => void;
}): OutboxWorker {
  const policy = { ...defaultOutboxPolicy, ...options.policy };
  let stopped = false;
  let woken = false;
  let sleeping: (() => void) | null = null;
  const wake = () => {
    woken = true;
    sleeping?.();
  };
  const unsubscribe = onOutboxWake(wake);

  const loop = (async () => {
    while (!stopped) {
      woken = false;
      let nextMs = policy.pollMs;
      try {
        let handled = 1;
        while (!stopped && handled > 0) handled = await deliverDue(options, options.mailer, policy, options.log);
        const next = await options.pool.one(nextDueStatement`
          SELECT (extract(epoch FROM min(next_attempt_at) - now()) * 1000)::float8 AS due_in_ms FROM outbox_messages WHERE status = 'pending'`);
        if (next.due_in_ms !== null) nextMs = Math.min(nextMs, Math.max(0, next.due_in_ms) + 10);
      } catch (error) {
        if (!stopped) options.log?.('the outbox worker failed; it will try again', error);
      }
      if (stopped || woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, nextMs);
        sleeping = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      sleeping = null;
    }
  })();

  return {
    wake,
    async stop() {
      stopped = true;
      unsubscribe();
      sleeping?.();
      await loop;
      await options.mailer.close();
    },
  };
}
