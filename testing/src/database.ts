// Tests run against a real PostgreSQL. In the parallel suite the workers share the run's cluster
// (started by ./suite-setup.ts): a file's long transaction does not hold back another file's
// projector, as the event store reads below its own database's open transactions only. With
// TEST_POSTGRES_URL set, files run one at a time on that server instead.
// Each test file gets a database of its own, dropped when it is done.
import { randomBytes } from 'node:crypto';
import { createPostgresEventStore, type PostgresEventStore } from '@storage/eventstore/postgres';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';

/** The run's cluster; outside the suite (a benchmark) the machine's PostgreSQL. */
function suitePostgresUrl(): string {
  if (process.env.TEST_POSTGRES_URL) return process.env.TEST_POSTGRES_URL;
  return (process.env.VITEST ? inject('postgresUrl') : null) ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export const TEST_POSTGRES_URL = suitePostgresUrl();
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

function urlFor(database: string, server: string): string {
  const u = new URL(server);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A new database, on the run's server unless `server` (an admin URL) names another; with
 * `template`, a copy of that one (which nothing may be connected to).
 */
export async function createTestDatabase(prefix = 'test', template?: string, server = TEST_POSTGRES_URL): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: urlFor(name, server),
    drop: () => dropTestDatabase(name, server),
  };
}

/** Drops database `name` of `server` (the run's by default), closing whatever is still connected to it. */
export async function dropTestDatabase(name: string, server = TEST_POSTGRES_URL): Promise<void> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * A Postgres event store on a database of the calling test file's own, made before its tests
 * and dropped after them. Read `.store` inside tests.
 */
export function useTestEventStore(prefix: string): { readonly store: PostgresEventStore } {
  let database: TestDatabase | undefined;
  let store: PostgresEventStore | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(prefix);
    store = await createPostgresEventStore({ connectionString: database.url });
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
  return {
    get store() {
      if (!store) throw new Error('the test event store is made in beforeAll');
      return store;
    },
  };
}
