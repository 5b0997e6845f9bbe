// A whole platform for API tests: a throwaway database on the suite's PostgreSQL, the API
// (driven with app.inject) and the projector, on BullMQ's Redis or PostgreSQL backend.

import { randomBytes, randomUUID } from 'node:crypto';
import { type ApiServer, createApiServer } from '@storage/api/server';
import type { StaffRole } from '@storage/contracts/enums';
import { registerStaff } from '@storage/domain/auth/staff';
import { connectEventStore } from '@storage/eventstore/connect';
import type { Position } from '@storage/eventstore/port';
import { type Config, readConfig } from '@storage/platform/config';
import { migrateReadModel } from '@storage/platform/migrate';
import { createQueue, queueConnection } from '@storage/platform/queues';
import { PROJECTOR_QUEUE } from '@storage/platform/wakeups';
import { readModelProjections } from '@storage/projector/projections';
import { reactions } from '@storage/projector/reactions/index';
import { catchUpTo } from '@storage/projector/runner';
import { type ProjectorService, startProjector } from '@storage/projector/service';
import { seedDemoData } from '@storage/seed/demo';
import pg from 'pg';
import { sql } from 'slonik';
import { inject } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, TEST_POSTGRES_URL, TEST_REDIS_URL, type TestDatabase } from './database.ts';
import { demoTemplateName, migratedTemplateName } from './templates.ts';

/** The `name=value` of the session cookie, as the browser sends it back (still URL-encoded). */
export function sessionCookie(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((c) => c.startsWith('storage_session='));
  if (!header) throw new Error('no session cookie was set');
  return header.split(';')[0]!;
}

export interface TestPlatform {
  api: ApiServer;
  /** The running projector; replaced by restartProjector. */
  projector: ProjectorService;
  /** Starts a projector again as the platform started its first (after `projector.stop()`: the product's projector down and back). */
  restartProjector(): Promise<void>;
  database: TestDatabase;
  /** The session cookie's key, for a second API on the same database (another replica). */
  sessionKey: Buffer;
  /** Creates a staff account and returns the session cookie of its sign-in. */
  signIn(role?: StaffRole): Promise<string>;
  /** Creates a staff account and returns its credentials. */
  createStaff(role?: StaffRole): Promise<{ email: string; password: string }>;
  /**
   * Waits until the read model shows every event written so far to this database; false if it
   * does not within `timeoutMs`. It waits for the newest event written, not for the store's
   * head: the head is the newest event every reader sees, and a transaction open anywhere on
   * the cluster (another test file's) holds it behind what this test has just written.
   */
  readModelCaughtUp(timeoutMs?: number): Promise<boolean>;
  /**
   * Waits until the read model has passed every event written and every reaction
   * (projector/src/reactions) has acted on each one it follows, and again while the reactions
   * keep writing (a payment clears a delinquency, the clear restores access); false if that takes longer than `timeoutMs` or a reaction fails.
   */
  reactionsCaughtUp(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * How far the reactions must be for a wait on them to end:
 * - `acted`: each has acted on every event it follows up to the position, and none is failing.
 *   Events of types no reaction follows are passed over at the projector's slower pace
 *   (projector/src/service.ts), so a checkpoint behind only those has nothing left to do: what
 *   a test waits for.
 * - `passed`: each checkpoint is at the position, as the product's first start leaves them: what
 *   the demo template waits for, so a copy's reactions do not go over the seed's history again
 *   in every file (a checkpoint left behind the seed's last followed event made each browser
 *   file's first reactions runs read the demo's log at start, beside Chromium).
 */
type ReactionsSettled = 'acted' | 'passed';

async function reactionsSettled(api: ApiServer, position: Position, settled: ReactionsSettled): Promise<boolean> {
  const hi = position.hi.toString();
  const lo = position.lo.toString();
  if (settled === 'passed') {
    const behind = await api.pool.oneFirst(sql.type(z.object({ behind: z.number() }))`
      SELECT count(*)::int AS behind FROM reaction_checkpoints
      WHERE failed_event_id IS NOT NULL OR position_hi IS NULL
         OR (position_hi, position_lo) < (${hi}::numeric, ${lo}::numeric)`);
    return behind === 0;
  }
  // One statement for every reaction: its checkpoint (none yet: ensured on an empty log, it starts
  // at the log's beginning, as the runner does), and whether an event it follows lies between.
  const pending = await api.pool.oneFirst(sql.type(z.object({ pending: z.number() }))`
    SELECT count(*)::int AS pending
    FROM unnest(${sql.array(
      reactions.map((r) => r.name),
      'text',
    )}, ${sql.array(
      reactions.map((r) => r.types.join(',')),
      'text',
    )}) AS r(name, types)
    LEFT JOIN reaction_checkpoints c ON c.name = r.name
    WHERE c.name IS NULL OR c.failed_event_id IS NOT NULL
       OR EXISTS (
         SELECT 1 FROM event_store.events e
         WHERE (e.transaction_id, e.global_position) > (COALESCE(c.position_hi, 0)::text::xid8, COALESCE(c.position_lo, 0)::bigint)
           AND (e.transaction_id, e.global_position) <= (${hi}::xid8, ${lo}::bigint)
           AND e.type = ANY(string_to_array(r.types, ',')))`);
  return pending === 0;
}

async function reactionsCaughtUp(api: ApiServer, timeoutMs: number, settled: ReactionsSettled): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const newest = await api.store.newestPosition();
    if (newest === null) return true;
    if (!(await api.afterAppend(newest, Math.max(0, deadline - Date.now())))) return false;
    while (!(await reactionsSettled(api, newest, settled))) {
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    const after = await api.store.newestPosition();
    if (after && after.hi === newest.hi && after.lo === newest.lo) return api.afterAppend(after, Math.max(0, deadline - Date.now()));
  }
}

type PlatformOptions = {
  queue?: 'redis' | 'postgres';
  staticRoots?: { console: string; portal: string };
  /**
   * Starts from the demo dataset (as the first `npm start` seeds it) with its read model built:
   * a copy of a template database that the worker seeds once (see demoTemplate).
   */
  seedDemo?: boolean;
  /** Configuration the test sets, as environment variables would (e.g. a Stripe key). */
  config?: Partial<Config>;
  /**
   * false: the billing day never runs on its own (BILLING_SCHEDULE=off), for tests that write a
   * history of hand-made invoices the engine must not add to.
   */
  billing?: boolean;
  /** How often the queue wakes the projector in case a wake-up was lost (default 3 s). */
  safetyNetMs?: number;
  /**
   * Another PostgreSQL server (an admin URL) than the run's: the platform starts on an empty
   * database there and migrates it, as the product does (the run's templates are on its server).
   */
  server?: string;
};

export async function startTestPlatform(options: PlatformOptions = {}): Promise<TestPlatform> {
  if (options.server && options.seedDemo) throw new Error("the demo template is on the run's server only");
  const database = options.server
    ? await createTestDatabase('platform', undefined, options.server)
    : await createTestDatabase('platform', options.seedDemo ? await demoTemplate() : await migratedTemplate());
  return startPlatformOn(database, options);
}

/**
 * The template `name`, built by `build` on a new database (a copy of `from`) if this run has none
 * yet. The workers share the run's server, so two may ask at once: the first to take the lock
 * builds it, the others wait for it and find it. It is built under another name and renamed once
 * complete, so a file failing half-way leaves no half-built template behind.
 */
async function ensureTemplate(name: string, from: () => Promise<string | undefined>, build: (database: TestDatabase) => Promise<void>): Promise<string> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    // A session lock: released when this connection ends, whatever happened.
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return name;
    const building = await createTestDatabase('template_building', await from());
    await build(building);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [building.name]);
    await admin.query(`ALTER DATABASE "${building.name}" RENAME TO "${name}"`);
    return name;
  } finally {
    await admin.end();
  }
}

/** Creates BullMQ's PostgreSQL schema (tables and functions, no jobs), as the API's first queue would. */
async function migrateQueueSchema(databaseUrl: string): Promise<void> {
  const queue = createQueue(PROJECTOR_QUEUE, queueConnection({ redisUrl: undefined, databaseUrl }));
  try {
    await queue.waitUntilReady();
  } finally {
    await queue.close();
  }
}

/**
 * The name of this run's migrated template on the run's server, built the first time a file asks
 * for it: the read model's migrations, the event store's and BullMQ's schemas,
 * and no rows. A platform starts on a copy of it, as the API would have migrated a new database
 * (its start still runs the migrations, finding none pending), without paying for the migrations
 * in every file.
 */
async function migratedTemplate(): Promise<string> {
  return ensureTemplate(
    migratedTemplateName(inject('runId')),
    async () => undefined,
    async (building) => {
      await migrateReadModel(building.url);
      const store = await connectEventStore({ databaseUrl: building.url });
      await store.close();
      await migrateQueueSchema(building.url);
    },
  );
}

/**
 * The name of this run's demo template on the run's server, seeded the first time a file asks
 * for it (once for the whole run: the workers share the server).
 */
async function demoTemplate(): Promise<string> {
  return ensureTemplate(demoTemplateName(inject('runId')), migratedTemplate, async (building) => {
    // The seed runs the billing days of its history itself; the scheduler must not bill today's in the middle of it.
    const platform = await startPlatformOn(building, { billing: false });
    try {
      const { store, pool } = platform.api;
      await seedDemoData({ store, pool, catchUpTo: (position) => catchUpTo(pool, store, readModelProjections, position, 120_000) }, { now: new Date() });
      // The reactions too, as on the product's first start (gate codes, lockouts, messages of the
      // demo's history): once here, not again in every file that starts on a copy.
      if (!(await reactionsCaughtUp(platform.api, 180_000, 'passed'))) throw new Error('the reactions did not catch up with the demo seed within 3 minutes');
    } finally {
      await platform.projector.stop();
      await platform.api.close();
    }
    // No queue state in the template: BullMQ's PostgreSQL tables are not namespaced by our
    // queue prefix, so a copy would find the template projector's scheduled jobs as its own.
    // The schema is made again empty, as in the migrated template.
    const template = new pg.Client({ connectionString: building.url });
    await template.connect();
    try {
      await template.query('DROP SCHEMA IF EXISTS bullmq CASCADE');
    } finally {
      await template.end();
    }
    await migrateQueueSchema(building.url);
  });
}

async function startPlatformOn(database: TestDatabase, options: PlatformOptions): Promise<TestPlatform> {
  const config = {
    ...readConfig({}),
    ...(options.billing === false && { billingSchedule: null }),
    ...options.config,
    redisUrl: options.queue === 'redis' ? TEST_REDIS_URL : undefined,
  };
  const queuePrefix = `test-${database.name}`;
  const sessionKey = randomBytes(32);
  const api = await createApiServer({
    config,
    databaseUrl: database.url,
    sessionKey,
    queuePrefix,
    ...(options.staticRoots ? { staticRoots: options.staticRoots } : {}),
  });
  const connection = queueConnection({ redisUrl: config.redisUrl, databaseUrl: database.url, prefix: queuePrefix });
  const projectorOptions = {
    pool: api.pool,
    store: api.store,
    connection,
    payments: config,
    schedule: config,
    messages: config,
    ...(options.safetyNetMs !== undefined && { safetyNetMs: options.safetyNetMs }),
  };
  async function createStaff(role: StaffRole = 'owner') {
    const email = `${role}-${randomUUID().slice(0, 8)}@staff.test`;
    const password = 'correct horse battery';
    const ctx = { store: api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    const { position } = await registerStaff({ ...ctx, pool: api.pool }, { email, firstName: 'Test', lastName: role, role, password });
    if (position) await api.afterAppend(position, 10_000);
    return { email, password };
  }
  const platform: TestPlatform = {
    api,
    projector: await startProjector(projectorOptions),
    async restartProjector() {
      platform.projector = await startProjector(projectorOptions);
    },
    database,
    sessionKey,
    createStaff,
    async readModelCaughtUp(timeoutMs = 30_000) {
      const newest = await api.store.newestPosition();
      return newest ? api.afterAppend(newest, timeoutMs) : true;
    },
    reactionsCaughtUp: (timeoutMs = 30_000) => reactionsCaughtUp(api, timeoutMs, 'acted'),
    async signIn(role = 'owner') {
      const { email, password } = await createStaff(role);
      const response = await api.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
      if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
      return sessionCookie(response.headers['set-cookie']);
    },
    async close() {
      await platform.projector.stop();
      await api.close();
      await database.drop();
    },
  };
  return platform;
}
