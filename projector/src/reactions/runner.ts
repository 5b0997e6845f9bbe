import { comparePositions, type EventStore, type Position, type RecordedEvent } from '@storage/eventstore/port';
import { CheckpointRow, earliestPosition, projectedPosition, toPosition } from '@storage/platform/checkpoints';
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

/**
 * Whether the reactions run now, after a catch-up that passed events of `types`: at once after an
 * event one of them follows, or while they have more to do or a retry due; events none follows
 * (most: a customer added or changed) are passed over at `paceMs`, many in one run.
 */
export function reactionsWanted(
  reactions: readonly Reaction[],
  types: Iterable<string>,
  state: { due: boolean; msSinceLastRun: number; paceMs: number },
): boolean {
  if (state.due || state.msSinceLastRun >= state.paceMs) return true;
  const followed = new Set<string>(reactions.flatMap((r) => r.types));
  for (const type of types) if (followed.has(type)) return true;
  return false;
}

/** The advisory lock that makes one runner at a time run a reaction, by the SQL text of its name (the key is the same as it always was). */
const lockKey = (name: ReturnType<typeof sql.fragment>) => sql.fragment`hashtextextended('reaction:' || ${name}, 0)`;

/** A reaction in a run: where it is, and what it passed over since it last saved. */
interface InRun {
  reaction: Reaction;
  row: z.infer<typeof ReactionRow>;
  types: Set<string>;
  checkpoint: Position | null;
  /** The last event passed over (of a type it does not follow) since the checkpoint was last saved. */
  passed: Position | null;
  done: boolean;
  failed: boolean;
}

/**
 * Runs every reaction over the events the read model has applied since its checkpoint. The log
 * is read once for all of them (from the earliest checkpoint), and the runner's bookkeeping is a
 * few statements per run whatever the number of reactions: lock those no other runner holds,
 * read their checkpoints, save those that passed over events, unlock.
 */
export async function runReactions(reactions: readonly Reaction[], options: ReactionRunOptions): Promise<ReactionRun> {
  const run: ReactionRun = { reacted: 0, failing: [], more: false };
  if (reactions.length === 0) return run;
  const until = await projectedPosition(options.pool);
  if (until === null) return run;
  const { pool, store } = options;
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const batchesPerRun = options.batchesPerRun ?? BATCHES_PER_RUN;
  return pool.connect(async (connection) => {
    // Those another process runs now are left to it.
    const held = await connection.anyFirst(
      sql.type(z.object({ name: z.string() }))`
        SELECT name FROM unnest(${sql.array(
          reactions.map((r) => r.name),
          'text',
        )}) AS name
        WHERE pg_try_advisory_lock(${lockKey(sql.fragment`name`)})`,
    );
    if (held.length === 0) return run;
    try {
      const rows = await connection.any(sql.type(ReactionRow)`
        SELECT name, position_hi::text, position_lo::text, failed_event_id, attempts, next_attempt_at::text
        FROM reaction_checkpoints WHERE name = ANY(${sql.array(held, 'text')})`);
      const running: InRun[] = [];
      for (const reaction of reactions) {
        const row = rows.find((r) => r.name === reaction.name);
        if (!row) continue;
        if (row.next_attempt_at !== null && Date.parse(row.next_attempt_at) > now().getTime()) {
          run.failing.push(reaction.name);
          continue;
        }
        const checkpoint = toPosition(row);
        running.push({ reaction, row, types: new Set(reaction.types), checkpoint, passed: null, done: false, failed: false });
      }
      // Batches up to a limit per run: a long backlog (a reaction new on a big history, a catch-up)
      // must not hold the projector, which runs the read model between runs, for minutes.
      for (let batches = 1; running.some((r) => !r.done); batches++) {
        const active = running.filter((r) => !r.done);
        const events = await store.readAll({ after: earliestPosition(active.map((r) => r.checkpoint)), limit: batchSize });
        for (const r of active) {
          for (const recorded of events) {
            if (r.checkpoint !== null && comparePositions(recorded.position, r.checkpoint) <= 0) continue;
            if (comparePositions(recorded.position, until) > 0) {
              r.done = true;
              break;
            }
            if (r.types.has(recorded.type)) {
              try {
                const event = toProjectedEvent(recorded);
                if (event) await r.reaction.react(event, { store, pool, now: now(), log: options.log });
              } catch (error) {
                await recordReactionFailure(connection, r, recorded, error, now(), options);
                run.failing.push(r.reaction.name);
                break;
              }
              run.reacted++;
              // Acted: the checkpoint moves past it at once, so a crash now repeats nothing already done.
              await saveCheckpoints(connection, [{ name: r.reaction.name, position: recorded.position }]);
              r.passed = null;
            } else {
              r.passed = recorded.position;
            }
            r.checkpoint = recorded.position;
          }
          if (events.length < batchSize) r.done = true;
        }
        if (batches === batchesPerRun && running.some((r) => !r.done)) {
          run.more = true;
          break;
        }
      }
      await saveCheckpoints(
        connection,
        running.flatMap((r) => (r.passed && !r.failed ? [{ name: r.reaction.name, position: r.passed }] : [])),
      );
      for (const r of running) {
        // It got past the event it had failed on.
        if (r.failed || r.row.failed_event_id === null) continue;
        await connection.query(sql.unsafe`
          UPDATE reaction_checkpoints SET failed_event_id = NULL, failed_event_type = NULL, attempts = 0, last_error = NULL, next_attempt_at = NULL, failing_since = NULL
          WHERE name = ${r.reaction.name}`);
        options.log?.(
          `reaction ${r.reaction.name} recovered: event ${r.row.failed_event_id} acted on after ${r.row.attempts} failed attempt${r.row.attempts === 1 ? '' : 's'}`,
        );
      }
      return run;
    } finally {
      await connection.query(sql.unsafe`SELECT pg_advisory_unlock(${lockKey(sql.fragment`name`)}) FROM unnest(${sql.array(held, 'text')}) AS name`);
    }
  });
}

/** A reaction threw on `recorded`: it keeps what it passed over before it, and is tried again on it later. */
async function recordReactionFailure(
  connection: { query: DatabasePool['query'] },
  r: InRun,
  recorded: RecordedEvent,
  error: unknown,
  at: Date,
  options: ReactionRunOptions,
) {
  r.done = true;
  r.failed = true;
  if (r.passed) await saveCheckpoints(connection, [{ name: r.reaction.name, position: r.passed }]);
  const attempts = r.row.failed_event_id === recorded.id ? r.row.attempts + 1 : 1;
  const delay = retryDelayMs(attempts, options.retry ?? DEFAULT_RETRY);
  await connection.query(sql.unsafe`
    UPDATE reaction_checkpoints SET failed_event_id = ${recorded.id}, failed_event_type = ${recorded.type}, attempts = ${attempts},
      last_error = ${errorText(error).slice(0, ERROR_TEXT_LIMIT)}, next_attempt_at = ${new Date(at.getTime() + delay).toISOString()},
      failing_since = CASE WHEN ${attempts} = 1 THEN ${at.toISOString()}::timestamptz ELSE failing_since END, updated_at = now()
    WHERE name = ${r.reaction.name}`);
  options.log?.(
    `reaction ${r.reaction.name} failed on event ${recorded.id} (${recorded.type} at ${describePosition(recorded.position)}), attempt ${attempts}; next attempt in ${delay / 1000} s`,
    error,
  );
}

/** Saves checkpoints, all in one statement (a named one: it runs after every reaction batch). */
const saveCheckpointsStatement = sql.prepared('reaction_checkpoints_save', z.object({}));

async function saveCheckpoints(connection: { query: DatabasePool['query'] }, saved: Array<{ name: string; position: Position }>) {
  if (saved.length === 0) return;
  await connection.query(saveCheckpointsStatement`
    UPDATE reaction_checkpoints c SET position_hi = v.hi, position_lo = v.lo, updated_at = now()
    FROM unnest(
      ${sql.array(
        saved.map((s) => s.name),
        'text',
      )},
      ${sql.array(
        saved.map((s) => s.position.hi.toString()),
        'numeric',
      )},
      ${sql.array(
        saved.map((s) => s.position.lo.toString()),
        'numeric',
      )}
    ) AS v(name, hi, lo)
    WHERE c.name = v.name`);
}
