import { comparePositions, type EventStore, type Position } from '@storage/eventstore/port';
import { CheckpointRow, projectedPosition, toPosition } from '@storage/platform/checkpoints';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { errorText } from '../error-text.ts';
import { DEFAULT_RETRY, describePosition, type RetryPolicy, retryDelayMs, toProjectedEvent } from '../runner.ts';
import type { Reaction } from './reaction.ts';

// Runs the reactions up to where the read model is: each reaction on its own checkpoint, one
// runner at a time per reaction across processes (a session advisory lock, not a transaction: an
// open transaction would hold back the cluster's snapshot and so every reader of the log).

const BATCH_SIZE = 200;
/** Batches one reaction goes through in one run before the projector's next catch-up. */
const BATCHES_PER_RUN = 5;
const ERROR_TEXT_LIMIT = 2000;

const ReactionRow = CheckpointRow.extend({
  name: z.string(),
  failed_event_id: z.string().nullable(),
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
});

export interface ReactionRunOptions {
  store: EventStore;
  pool: DatabasePool;
  log?: (message: string, error?: unknown) => void;
  now?: () => Date;
  retry?: RetryPolicy;
  /** Events read at once (default 200), and batches one reaction goes through per run (default 5). */
  batchSize?: number;
  batchesPerRun?: number;
}

export interface ReactionRun {
  /** Events reacted to (react called and returned). */
  reacted: number;
  /** Reactions that threw and wait to try again. */
  failing: string[];
  /** Some reaction stopped at its batch limit with events still to go: run again soon. */
  more: boolean;
}

/**
 * A new reaction starts at the log's head: it acts on what happens from now on, not on the past
 * (a message for every invoice ever sent would be wrong). Existing checkpoints are left alone.
 */
export async function ensureReactionCheckpoints(pool: DatabasePool, store: EventStore, reactions: readonly Reaction[]): Promise<void> {
  if (reactions.length === 0) return;
  const known = new Set(
    await pool.anyFirst(
      sql.type(z.object({ name: z.string() }))`SELECT name FROM reaction_checkpoints WHERE name = ANY(${sql.array(
        reactions.map((r) => r.name),
        'text',
      )})`,
    ),
  );
  const missing = reactions.filter((r) => !known.has(r.name));
  if (missing.length === 0) return;
  const head = await store.headPosition();
  for (const reaction of missing) {
    await pool.query(sql.unsafe`
      INSERT INTO reaction_checkpoints (name, position_hi, position_lo)
      VALUES (${reaction.name}, ${head ? head.hi.toString() : null}, ${head ? head.lo.toString() : null})
      ON CONFLICT (name) DO NOTHING`);
  }
}

/** A stable 64-bit key of the advisory lock that makes one runner at a time run a reaction. */
const lockKey = (name: string) => sql.fragment`hashtextextended(${`reaction:${name}`}, 0)`;

/** Runs every reaction over the events the read model has applied since its checkpoint. */
export async function runReactions(reactions: readonly Reaction[], options: ReactionRunOptions): Promise<ReactionRun> {
  const run: ReactionRun = { reacted: 0, failing: [], more: false };
  if (reactions.length === 0) return run;
  const until = await projectedPosition(options.pool);
  if (until === null) return run;
  for (const reaction of reactions) {
    const outcome = await runOne(reaction, until, options);
    run.reacted += outcome.reacted;
    run.more ||= outcome.more;
    if (outcome.failing) run.failing.push(reaction.name);
  }
  return run;
}

async function runOne(reaction: Reaction, until: Position, options: ReactionRunOptions): Promise<{ reacted: number; failing: boolean; more: boolean }> {
  const { pool, store } = options;
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const batchesPerRun = options.batchesPerRun ?? BATCHES_PER_RUN;
  return pool.connect(async (connection) => {
    const locked = await connection.oneFirst(sql.type(z.object({ locked: z.boolean() }))`SELECT pg_try_advisory_lock(${lockKey(reaction.name)}) AS locked`);
    // Another process runs it now.
    if (!locked) return { reacted: 0, failing: false, more: false };
    try {
      const row = await connection.maybeOne(sql.type(ReactionRow)`
        SELECT name, position_hi::text, position_lo::text, failed_event_id, attempts, next_attempt_at::text
        FROM reaction_checkpoints WHERE name = ${reaction.name}`);
      if (!row) return { reacted: 0, failing: false, more: false };
      if (row.next_attempt_at !== null && Date.parse(row.next_attempt_at) > now().getTime()) return { reacted: 0, failing: true, more: false };
      let checkpoint = toPosition(row);
      let reacted = 0;
      const types = new Set<string>(reaction.types);
      // Batches up to a limit per run: a long backlog (a reaction new on a big history, a catch-up)
      // must not hold the projector, which runs the read model between runs, for minutes.
      let more = false;
      for (let batches = 1; ; batches++) {
        const events = await store.readAll({ after: checkpoint, limit: batchSize });
        let passed: Position | null = null;
        let beyond = false;
        for (const recorded of events) {
          if (comparePositions(recorded.position, until) > 0) {
            beyond = true;
            break;
          }
          if (types.has(recorded.type)) {
            try {
              const event = toProjectedEvent(recorded);
              if (event) await reaction.react(event, { store, pool, now: now(), log: options.log });
            } catch (error) {
              if (passed) await saveCheckpoint(connection, reaction.name, passed);
              const attempts = row.failed_event_id === recorded.id ? row.attempts + 1 : 1;
              const delay = retryDelayMs(attempts, options.retry ?? DEFAULT_RETRY);
              await connection.query(sql.unsafe`
                UPDATE reaction_checkpoints SET failed_event_id = ${recorded.id}, failed_event_type = ${recorded.type}, attempts = ${attempts},
                  last_error = ${errorText(error).slice(0, ERROR_TEXT_LIMIT)}, next_attempt_at = ${new Date(now().getTime() + delay).toISOString()},
                  failing_since = CASE WHEN ${attempts} = 1 THEN ${now().toISOString()}::timestamptz ELSE failing_since END, updated_at = now()
                WHERE name = ${reaction.name}`);
              options.log?.(
                `reaction ${reaction.name} failed on event ${recorded.id} (${recorded.type} at ${describePosition(recorded.position)}), attempt ${attempts}; next attempt in ${delay / 1000} s`,
                error,
              );
              return { reacted, failing: true, more: false };
            }
            reacted++;
            // Acted: the checkpoint moves past it at once, so a crash now repeats nothing already done.
            await saveCheckpoint(connection, reaction.name, recorded.position);
            passed = null;
          } else {
            passed = recorded.position;
          }
          checkpoint = recorded.position;
        }
        if (passed) await saveCheckpoint(connection, reaction.name, passed);
        if (beyond || events.length < batchSize) break;
        if (batches === batchesPerRun) {
          more = true;
          break;
        }
      }
      // It got past the event it had failed on.
      if (row.failed_event_id !== null) {
        await connection.query(sql.unsafe`
          UPDATE reaction_checkpoints SET failed_event_id = NULL, failed_event_type = NULL, attempts = 0, last_error = NULL, next_attempt_at = NULL, failing_since = NULL
          WHERE name = ${reaction.name}`);
        options.log?.(
          `reaction ${reaction.name} recovered: event ${row.failed_event_id} acted on after ${row.attempts} failed attempt${row.attempts === 1 ? '' : 's'}`,
        );
      }
      return { reacted, failing: false, more };
    } finally {
      await connection.query(sql.unsafe`SELECT pg_advisory_unlock(${lockKey(reaction.name)})`);
    }
  });
}

async function saveCheckpoint(connection: { query: DatabasePool['query'] }, name: string, position: Position) {
  await connection.query(sql.unsafe`
    UPDATE reaction_checkpoints SET position_hi = ${position.hi.toString()}, position_lo = ${position.lo.toString()}, updated_at = now()
    WHERE name = ${name}`);
}
