import { createServer, type Server } from 'node:http';
import type { EventStore } from '@storage/eventstore/port';
import type { Queue } from 'bullmq';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { describeFailure, failedProjections, projectedPosition } from './checkpoints.ts';

// Health answers for load balancers and orchestrators, the same for the API and the projector:
// live = the process answers; ready = every dependency answers and the read model is not too far
// behind the event store. Cheap (a few small queries, each bounded in time) and free of personal data.

/** Each dependency gets this long to answer before it counts as unreachable. */
const CHECK_TIMEOUT_MS = 2000;
/** The read model may be this far behind the store (the oldest unprojected event's age) and still be ready. */
export const DEFAULT_MAX_LAG_SECONDS = 60;
/** Events behind are counted up to this many (reading more would not be cheap). */
const LAG_COUNT_LIMIT = 1000;

export interface CheckResult {
  ok: boolean;
  /** Why the check failed (the error's message; never data). */
  error?: string;
}

export interface LagCheck extends CheckResult {
  /** Committed events the read model has not yet projected (counted up to 1000; `eventsBehindAtLeast` when the count stopped there). */
  eventsBehind?: number;
  eventsBehindAtLeast?: boolean;
  /** Age of the oldest event not yet projected; 0 when caught up. */
  secondsBehind?: number;
  maxSecondsBehind?: number;
  /** Projections failing on an event, retried with backoff (the error itself is in the projector's log, and for owners in Settings → Read model). */
  failingProjections?: FailingProjection[];
}

/**
 * A failing projection as the public health answer shows it: where and since when, not the error's
 * text (it may quote data; owners read it in Settings → Read model, GET /api/read-model/failures).
 */
export interface FailingProjection {
  projection: string;
  eventId: string;
  eventType: string;
  /** The event's position in the store, `hi/lo`. */
  position: string;
  attempts: number;
  failingSince: string;
  nextAttemptAt: string;
  /** The projections held at the same event with it: those reading its tables, directly or through another. The others go on. */
  holds: string[];
}

/** A reaction (a process acting on events) failing on an event, retried with backoff; the error is in the projector's log. */
export interface FailingReaction {
  reaction: string;
  eventType: string;
  attempts: number;
  failingSince: string;
  nextAttemptAt: string;
}

export interface ReactionsCheck extends CheckResult {
  failingReactions?: FailingReaction[];
}

export interface Readiness {
  status: 'ready' | 'not ready';
  checks: { database: CheckResult; eventStore: CheckResult; queue: CheckResult; projectorLag: LagCheck; reactions: ReactionsCheck };
  /** The names of the checks that failed. */
  failing: string[];
}

export interface HealthDeps {
  pool: DatabasePool;
  store: EventStore;
  /** Any queue on the queue backend (its job counts are asked for). */
  queue: Queue;
  maxLagSeconds?: number;
}

async function within<T>(work: () => Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function check(work: () => Promise<unknown>, what: string): Promise<CheckResult> {
  try {
    await within(work, what);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** How far the read model (the slowest projection's checkpoint) is behind the store's head, and the projections failing on an event. */
export async function projectorLag(
  pool: DatabasePool,
  store: EventStore,
  now: Date = new Date(),
): Promise<{ eventsBehind: number; eventsBehindAtLeast: boolean; secondsBehind: number; failingProjections: FailingProjection[] }> {
  const projected = await projectedPosition(pool);
  const pending = await store.readAll({ after: projected, limit: LAG_COUNT_LIMIT });
  const oldest = pending[0];
  const secondsBehind = oldest ? Math.max(0, Math.round((now.getTime() - Date.parse(oldest.recordedAt)) / 1000)) : 0;
  const failingProjections = (await failedProjections(pool)).map((f) => ({
    projection: f.projection,
    eventId: f.eventId,
    eventType: f.eventType,
    position: `${f.position.hi}/${f.position.lo}`,
    attempts: f.attempts,
    failingSince: f.firstFailedAt,
    nextAttemptAt: f.nextAttemptAt,
    holds: f.holds,
  }));
  return { eventsBehind: pending.length, eventsBehindAtLeast: pending.length === LAG_COUNT_LIMIT, secondsBehind, failingProjections };
}

const FailingReactionRow = z.object({
  name: z.string(),
  failed_event_type: z.string(),
  attempts: z.number(),
  failing_since: z.string(),
  next_attempt_at: z.string(),
});

/** The reactions failing on an event now. */
export async function failingReactions(pool: DatabasePool): Promise<FailingReaction[]> {
  const rows = await pool.any(sql.type(FailingReactionRow)`
    SELECT name, failed_event_type, attempts, to_json(failing_since)#>>'{}' AS failing_since, to_json(next_attempt_at)#>>'{}' AS next_attempt_at
    FROM reaction_checkpoints WHERE failed_event_id IS NOT NULL ORDER BY failing_since, name`);
  return rows.map((r) => ({
    reaction: r.name,
    eventType: r.failed_event_type,
    attempts: r.attempts,
    failingSince: r.failing_since,
    nextAttemptAt: r.next_attempt_at,
  }));
}

/** Reactions may fail for a moment (a retry clears it); one failing for longer than the lag bound fails the check. */
async function reactionsCheck(pool: DatabasePool, maxSeconds: number, now: Date): Promise<ReactionsCheck> {
  try {
    const failing = await within(() => failingReactions(pool), 'the reaction checkpoints');
    const stuck = failing.filter((f) => now.getTime() - Date.parse(f.failingSince) > maxSeconds * 1000);
    if (stuck.length === 0) return { ok: true, failingReactions: failing };
    const names = stuck.map((f) => `${f.reaction} on ${f.eventType} since ${f.failingSince} (${f.attempts} attempts)`).join('; ');
    return { ok: false, failingReactions: failing, error: `reactions failing for more than ${maxSeconds} s: ${names}` };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export async function readiness(deps: HealthDeps): Promise<Readiness> {
  const maxSecondsBehind = deps.maxLagSeconds ?? DEFAULT_MAX_LAG_SECONDS;
  const [database, eventStore, queue, projectorLagCheck, reactions] = await Promise.all([
    check(() => deps.pool.oneFirst(sql.type(z.object({ ok: z.number() }))`SELECT 1 AS ok`), 'the database'),
    check(() => deps.store.headPosition(), 'the event store'),
    check(() => deps.queue.getJobCounts('waiting'), 'the queue backend'),
    (async (): Promise<LagCheck> => {
      try {
        const lag = await within(() => projectorLag(deps.pool, deps.store), 'the projector checkpoints');
        const ok = lag.secondsBehind <= maxSecondsBehind;
        // A failure younger than the bound may be a passing one (a retry clears it): listed, not failing the check.
        const stuck = lag.failingProjections.map((f) => `; ${describeFailure(f)}`).join('');
        return {
          ok,
          ...lag,
          maxSecondsBehind,
          ...(ok ? {} : { error: `the read model is ${lag.secondsBehind} s behind the event store (bound ${maxSecondsBehind} s)${stuck}` }),
        };
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error), maxSecondsBehind };
      }
    })(),
    reactionsCheck(deps.pool, maxSecondsBehind, new Date()),
  ]);
  const checks = { database, eventStore, queue, projectorLag: projectorLagCheck, reactions };
  const failing = Object.entries(checks)
    .filter(([, result]) => !result.ok)
    .map(([name]) => name);
  return { status: failing.length === 0 ? 'ready' : 'not ready', checks, failing };
}

export const LIVE_PATH = '/api/health/live';
export const READY_PATH = '/api/health/ready';

/** The live answer: the process is up. */
export function liveness(): { status: 'live'; uptimeSeconds: number } {
  return { status: 'live', uptimeSeconds: Math.round(process.uptime()) };
}

/**
 * The two health answers on a small HTTP server of their own, for a process without the API
 * (the projector). Resolves once listening; `port` 0 picks a free port.
 */
export async function startHealthServer(
  deps: HealthDeps,
  options: { port: number; host: string },
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : JSON.stringify(body));
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(404, { message: 'Not Found' });
    if (path === LIVE_PATH) return send(200, liveness());
    if (path === READY_PATH) {
      void readiness(deps).then(
        (result) => send(result.status === 'ready' ? 200 : 503, result),
        () => send(503, { status: 'not ready' }),
      );
      return;
    }
    return send(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    server,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Reports the projector's lag to the log every `everyMs` while the read model is behind, and once
 * when it has caught up again (a caught-up projector stays quiet). Returns the stop function.
 */
export function reportLag(
  deps: { pool: DatabasePool; store: EventStore },
  log: (level: 'info' | 'warn', fields: Record<string, unknown>, message: string) => void,
  options: { everyMs?: number; maxLagSeconds?: number } = {},
): () => void {
  const maxLagSeconds = options.maxLagSeconds ?? DEFAULT_MAX_LAG_SECONDS;
  let behind = false;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    projectorLag(deps.pool, deps.store)
      .then((lag) => {
        if (lag.eventsBehind > 0) {
          behind = true;
          const level = lag.secondsBehind > maxLagSeconds || lag.failingProjections.length > 0 ? 'warn' : 'info';
          log(level, lag, 'projector lag');
        } else if (behind) {
          behind = false;
          log('info', lag, 'projector caught up');
        }
      })
      .catch((error: unknown) => log('warn', { err: error instanceof Error ? error.message : String(error) }, 'projector lag unknown'))
      .finally(() => {
        running = false;
      });
  }, options.everyMs ?? 30_000);
  timer.unref();
  return () => clearInterval(timer);
}
