// A whole platform for API tests: a throwaway database on the machine's PostgreSQL, the API
// (driven with app.inject) and the projector, on BullMQ's Redis or PostgreSQL backend.

import { randomBytes, randomUUID } from 'node:crypto';
import { type ApiServer, createApiServer } from '@storage/api/server';
import type { StaffRole } from '@storage/contracts/enums';
import { registerStaff } from '@storage/domain/auth/staff';
import { type Config, readConfig } from '@storage/platform/config';
import { queueConnection } from '@storage/platform/queues';
import { type ProjectorService, startProjector } from '@storage/projector/service';
import { seedDemoData } from '../seed/demo.ts';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from './database.ts';

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

export async function startTestPlatform(
  options: {
    queue?: 'redis' | 'postgres';
    staticRoots?: { console: string; portal: string };
    /** Seeds the demo dataset (as the first `npm start` does) and waits for the read model. */
    seedDemo?: boolean;
    /** Configuration the test sets, as environment variables would (e.g. a Stripe key). */
    config?: Partial<Config>;
  } = {},
): Promise<TestPlatform> {
  const database = await createTestDatabase('platform');
  const config = { ...readConfig({}), ...options.config, redisUrl: options.queue === 'redis' ? TEST_REDIS_URL : undefined };
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
  if (options.seedDemo) {
    await seedDemoData(api.store, { now: new Date() });
    const head = await api.store.headPosition();
    if (head) await api.afterAppend(head, 120_000);
  }
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
