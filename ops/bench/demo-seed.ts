// `npm run bench:seed [-- --keep]`: how long the demo seed takes with its read model built, as the
// first `npm start` and each test worker's demo template pay it; in a throwaway database on the
// test PostgreSQL (TEST_POSTGRES_URL). `--keep` leaves the database (its name is printed), which
// `bench:rebuild` and `bench:landing` can start from (`--demo-from`) instead of seeding their own.

import { parseArgs } from 'node:util';
import { comparePositions, type Position } from '@storage/eventstore/port';
import { createPostgresEventStore } from '@storage/eventstore/postgres';
import { projectedPosition } from '@storage/platform/checkpoints';
import { createDatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { readModelProjections } from '@storage/projector/projections';
import { catchUpTo, ensureCheckpoints } from '@storage/projector/runner';
import { seedDemoData } from '@storage/seed/demo';
import { createTestDatabase } from '@storage/testing/database';
import { startRun } from './measure.ts';

const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } });
const run = startRun('seed', { keep: values.keep });
const database = await createTestDatabase('bench_seed');
try {
  const store = await createPostgresEventStore({ connectionString: database.url });
  await store.migrate();
  await migrateReadModel(database.url);
  const pool = await createDatabasePool(database.url);
  await ensureCheckpoints(pool, readModelProjections);
  const started = performance.now();
  await seedDemoData({ store, pool, catchUpTo: (position) => catchUpTo(pool, store, readModelProjections, position, 120_000) }, { now: new Date() });
  const seconds = (performance.now() - started) / 1000;
  // The seed returns with its read model caught up.
  const head = await store.newestPosition();
  const reached = await projectedPosition(pool);
  if (!head || !reached || comparePositions(reached, head) < 0) throw new Error('the seed returned before its read model caught up');
  let events = 0;
  for (let after = null as Position | null; ; ) {
    const batch = await store.readAll({ after, limit: 5000 });
    if (batch.length === 0) break;
    events += batch.length;
    after = batch.at(-1)!.position;
  }
  console.log(`demo seed: ${events.toLocaleString('en-US')} events with the read model built in ${seconds.toFixed(1)} s`);
  run.write({ demoSeedWithReadModel: { events, seconds } });
  await pool.end();
  await store.close();
} finally {
  if (values.keep) console.log(`Kept the database ${database.name}`);
  else await database.drop();
}
