// A whole platform for API tests: a throwaway database on the worker's PostgreSQL, the API
// (driven with app.inject) and the projector, on BullMQ's Redis or PostgreSQL backend.

import { randomBytes, randomUUID } from 'node:crypto';
import { type ApiServer, createApiServer } from '@storage/api/server';
import type { StaffRole } from '@storage/contracts/enums';
import { registerStaff } from '@storage/domain/auth/staff';
import { type Config, readConfig } from '@storage/platform/config';
import { queueConnection } from '@storage/platform/queues';
import { type ProjectorService, startProjector } from '@storage/projector/service';
import { seedDemoData } from '@storage/seed/demo';
import pg from 'pg';
import { inject } from 'vitest';
import { createTestDatabase, TEST_POSTGRES_URL, TEST_REDIS_URL, type TestDatabase } from './database.ts';

/** The `name=value` of the session cookie, as the browser sends it back (still URL-encoded). */
export function sessionCookie(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((c) => c.startsWith('storage_session='));
  if (!header) throw new Error('no session cookie was set');
  return header.split(';')[0]!;
}

export interface TestPlatform {
  api: ApiServer;
  projector: ProjectorService;
  database: TestDatabase;
  /** The session cookie's key, for a second API on the same database (another replica). */
  sessionKey: Buffer;
  /** Creates a staff account and returns the session cookie of its sign-in. */
  signIn(role?: StaffRole): Promise<string>;
  /** Creates a staff account and returns its credentials. */
  createStaff(role?: StaffRole): Promise<{ email: string; password: string }>;
  close(): Promise<void>;
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
};

export async function startTestPlatform(options: PlatformOptions = {}): Promise<TestPlatform> {
  const database = options.seedDemo ? await createTestDatabase('platform', await demoTemplate()) : await createTestDatabase('platform');
  return startPlatformOn(database, options);
}

/**
 * The name of this run's demo template on the worker's server, seeded the first time a file on
 * this worker asks for it. Only one file at a time uses a worker's server, so no two build it at
 * once; it is built under another name and renamed when complete, so a file that failed half-way
 * leaves no half-seeded template behind.
 */
async function demoTemplate(): Promise<string> {
  const name = `demo_template_${inject('runId')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return name;
    const building = await createTestDatabase('demo_building');
    const platform = await startPlatformOn(building, {});
    try {
      await seedDemoData(platform.api.store, { now: new Date() });
      const head = await platform.api.store.headPosition();
      if (head) await platform.api.afterAppend(head, 120_000);
    } finally {
      await platform.projector.stop();
      await platform.api.close();
    }
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [building.name]);
    // No queue state in the template: BullMQ's PostgreSQL tables are not namespaced by our queue
    // prefix, so a copy would find the template projector's scheduled jobs as its own.
    const template = new pg.Client({ connectionString: building.url });
    await template.connect();
    try {
      await template.query('DROP SCHEMA IF EXISTS bullmq CASCADE');
    } finally {
      await template.end();
    }
    await admin.query(`ALTER DATABASE "${building.name}" RENAME TO "${name}"`);
    return name;
  } finally {
    await admin.end();
  }
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
  const projector = await startProjector({ pool: api.pool, store: api.store, connection, payments: config, schedule: config });
  async function createStaff(role: StaffRole = 'owner') {
    const email = `${role}-${randomUUID().slice(0, 8)}@staff.test`;
    const password = 'correct horse battery';
    const ctx = { store: api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    const { position } = await registerStaff({ ...ctx, pool: api.pool }, { email, firstName: 'Test', lastName: role, role, password });
    if (position) await api.afterAppend(position, 10_000);
    return { email, password };
  }
  return {
    api,
    projector,
    database,
    sessionKey,
    createStaff,
    async signIn(role = 'owner') {
      const { email, password } = await createStaff(role);
      const response = await api.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
      if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
      return sessionCookie(response.headers['set-cookie']);
    },
    async close() {
      await projector.stop();
      await api.close();
      await database.drop();
    },
  };
}
