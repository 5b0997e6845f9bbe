import { comparePositions, type Position } from '@storage/eventstore/port';
import pg from 'pg';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { createDatabasePool } from './db.ts';

/** A checkpoint row's position as selected (`position_hi::text, position_lo::text`); null before the first event. */
export const CheckpointRow = z.object({ position_hi: z.string().nullable(), position_lo: z.string().nullable() });

export function toPosition(row: z.infer<typeof CheckpointRow>): Position | null {
  return row.position_hi === null || row.position_lo === null ? null : { hi: BigInt(row.position_hi), lo: BigInt(row.position_lo) };
}

/** The earliest of the positions, or null when there are none or one is null (has seen nothing). */
export function earliestPosition(positions: Iterable<Position | null>): Position | null {
  let min: Position | null = null;
  for (const p of positions) {
    if (p === null) return null;
    if (min === null || comparePositions(p, min) < 0) min = p;
  }
  return min;
}

/** The earliest of the checkpoints, or null when there are none or one has seen nothing. */
function earliest(rows: readonly z.infer<typeof CheckpointRow>[]): Position | null {
  return earliestPosition(rows.map(toPosition));
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
  /** The projections held at the same event with it: those reading its tables, directly or through another. The others go on. */
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
 * What read-your-writes waits for, in one query: the earliest checkpoint of the projections that
 * are not failing. A projection that is failing on an event, and those it holds back, are not
 * waited for: they pass nothing until the failure clears (retried after 1 s at the earliest, then
 * ever later), so waiting for them would make every command sit out its full timeout, whatever
 * screen it returns to. The health answer names them instead. `everything` is true when there is
 * nothing to wait for at all (every projection failing).
 */
/** Every command's read-your-writes wait runs it, often more than once: a named statement, planned once per connection. */
const progressStatement = sql.prepared('projection_progress', CheckpointRow.extend({ failing: z.boolean() }));

async function readProgress(pool: DatabasePool): Promise<{ reached: Position | null; everything: boolean }> {
  const rows = await pool.any(progressStatement`
    SELECT c.position_hi::text, c.position_lo::text,
           EXISTS (SELECT 1 FROM projection_failures f WHERE f.projection = c.name OR c.name = ANY(f.holds)) AS failing
    FROM projection_checkpoints c`);
  const healthy = rows.filter((row) => !row.failing);
  return { reached: earliest(healthy), everything: rows.length > 0 && healthy.length === 0 };
}

const passed = (progress: { reached: Position | null; everything: boolean }, position: Position) =>
  progress.everything || (progress.reached !== null && comparePositions(progress.reached, position) >= 0);

/**
 * Read-your-writes by polling: resolves true once the read model has passed `position`, false
 * when `timeoutMs` runs out first (the write stands; the read model is just late). For one-off
 * waits (first start, the CLI); a server waits through a ProjectionProgress instead.
 */
export async function waitForProjections(pool: DatabasePool, position: Position, timeoutMs = 2000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 5; ; delay = Math.min(delay * 2, 50)) {
    if (passed(await readProgress(pool), position)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** The channel migration 038 notifies on every change of projection_checkpoints and projection_failures. */
const PROGRESS_CHANNEL = 'projection_progress';
/** A look without a notification, while someone waits: in case the listening connection was lost. */
const FALLBACK_POLL_MS = 500;
const RECONNECT_MS = 1000;

interface Waiter {
  position: Position;
  resolve(reached: boolean): void;
  timer: NodeJS.Timeout;
}

/**
 * Read-your-writes for a whole process: one connection LISTENs for the projector's progress, and
 * on each notification one query reads the checkpoints and answers every request waiting, so a
 * command costs no query of its own while it waits. A poll every 500 ms, while anyone waits, covers
 * a lost connection (it reconnects); each wait still ends at its timeout.
 */
export class ProjectionProgress {
  private readonly waiters = new Set<Waiter>();
  private known: { reached: Position | null; everything: boolean } = { reached: null, everything: false };
  /** Whether `known` follows every change: the listener is connected and has read since it connected. */
  private following = false;
  private reading: Promise<void> | null = null;
  private readAgain = false;
  private client: pg.Client | null = null;
  private poll: NodeJS.Timeout | null = null;
  private reconnect: NodeJS.Timeout | null = null;
  private closed = false;

  /** A connection of its own for the reads: behind a burst of requests on the API's pool, the answer they wait for would wait for them. */
  private pool: DatabasePool | null = null;
  private readonly databaseUrl: string;
  private readonly log: (message: string, error?: unknown) => void;

  constructor(databaseUrl: string, log: (message: string, error?: unknown) => void = () => {}) {
    this.databaseUrl = databaseUrl;
    this.log = log;
  }

  /** Connects the listener; until it is connected (or after it is lost) waits poll. */
  async start(): Promise<void> {
    this.pool = await createDatabasePool(this.databaseUrl, { maxPoolSize: 1 });
    await this.listen().catch((error) => this.lost(error));
  }

  /** Resolves true once the read model has passed `position`, false when `timeoutMs` runs out first. */
  wait(position: Position, timeoutMs = 2000): Promise<boolean> {
    if (passed(this.known, position)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.add(waiter);
      this.ensurePoll();
      // Nothing may have changed since the last look, or a change may have come before we listened.
      if (!this.following) this.refresh();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.poll) clearInterval(this.poll);
    if (this.reconnect) clearTimeout(this.reconnect);
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(passed(this.known, waiter.position));
    }
    this.waiters.clear();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
    await this.reading?.catch(() => {});
    await this.pool?.end();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('error', (error) => this.lost(error));
    client.on('end', () => this.lost(new Error('the connection ended')));
    client.on('notification', () => this.refresh());
    await client.connect();
    if (this.closed) {
      await client.end();
      return;
    }
    await client.query(`LISTEN ${PROGRESS_CHANNEL}`);
    this.client = client;
    // Listening first, then reading: no change can fall between the two.
    await this.read();
    this.following = this.client === client;
  }

  private lost(error: unknown) {
    if (this.closed || this.reconnect) return;
    if (this.following) this.log('projection progress: the listening connection was lost; polling until it is back', error);
    this.following = false;
    const client = this.client;
    this.client = null;
    client?.removeAllListeners('end');
    client?.end().catch(() => {});
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      this.listen().catch((e) => this.lost(e));
    }, RECONNECT_MS);
  }

  private ensurePoll() {
    if (this.poll || this.closed) return;
    this.poll = setInterval(() => {
      if (this.waiters.size === 0) {
        clearInterval(this.poll!);
        this.poll = null;
        return;
      }
      this.refresh();
    }, FALLBACK_POLL_MS);
    this.poll.unref();
  }

  /** One read at a time; a notification during a read asks for one more after it. */
  private refresh() {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.read()
      .catch((error) => this.log('projection progress: reading the checkpoints failed', error))
      .finally(() => {
        this.reading = null;
        if (this.readAgain && !this.closed) {
          this.readAgain = false;
          this.refresh();
        }
      });
  }

  private async read(): Promise<void> {
    if (!this.pool) return;
    const progress = await readProgress(this.pool);
    this.known = progress;
    for (const waiter of this.waiters) {
      if (!passed(progress, waiter.position)) continue;
      clearTimeout(waiter.timer);
      this.waiters.delete(waiter);
      waiter.resolve(true);
    }
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
