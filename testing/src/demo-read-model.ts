import { createPostgresEventStore, type PostgresEventStore } from '@storage/eventstore/postgres';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { readModelProjections } from '@storage/projector/projections';
import { catchUpTo, ensureCheckpoints } from '@storage/projector/runner';
import { seedDemoData } from '@storage/seed/demo';
import { createTestDatabase, type TestDatabase } from './database.ts';

/** A throwaway database holding the demo's history and the read model projected from it in this process (no API, no projector loop). */
export interface DemoReadModel {
  database: TestDatabase;
  store: PostgresEventStore;
  pool: DatabasePool;
  /** Closes the pool and the store, and drops the database. */
  close(): Promise<void>;
}

export async function createDemoReadModel(prefix: string): Promise<DemoReadModel> {
  const database = await createTestDatabase(prefix);
  const store = await createPostgresEventStore({ connectionString: database.url });
  await store.migrate();
  await migrateReadModel(database.url);
  const pool = await createDatabasePool(database.url);
  await ensureCheckpoints(pool, readModelProjections);
  await seedDemoData({ store, pool, catchUpTo: (position) => catchUpTo(pool, store, readModelProjections, position, 120_000) }, { now: new Date() });
  return {
    database,
    store,
    pool,
    close: async () => {
      await pool.end();
      await store.close();
      await database.drop();
    },
  };
}
