import { availableParallelism, cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { connectEventStore } from '@storage/eventstore/connect';
import type { EventStore } from '@storage/eventstore/port';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { readModelProjections } from '@storage/projector/projections';
import { rebuildIntoShadow } from '@storage/projector/rebuild';
import { catchUpTo, ensureCheckpoints } from '@storage/projector/runner';
import { seedDemoData } from '@storage/seed/demo';
import { LARGE_HISTORY_EVENTS, seedLargeHistory } from '@storage/seed/large';
import { createTestDatabase } from '@storage/testing/database';
import { sql } from 'slonik';

// `npm run bench:rebuild [-- --large]`: how fast a rebuild applies the history to the shadow
// tables, on the demo data and (with --large) on a generated history of over a million events.
// Each history goes into a throwaway database on the test PostgreSQL (TEST_POSTGRES_URL).

const TARGET_EVENTS_PER_SECOND = 20_000;

/**
 * Below this many events a rebuild's time is mostly fixed costs (making the shadow tables, a few
 * queries per table per batch, indexing), so a rate says little about throughput.
 */
const SUSTAINED_FROM_EVENTS = 100_000;

function verdict(events: number, rate: number): string {
  if (events < SUSTAINED_FROM_EVENTS)
    return `(too few events for the ${TARGET_EVENTS_PER_SECOND.toLocaleString('en-US')} events/s target: fixed costs dominate)`;
  return `(target ${TARGET_EVENTS_PER_SECOND.toLocaleString('en-US')}: ${rate >= TARGET_EVENTS_PER_SECOND ? 'met' : 'not met'})`;
}

const { values } = parseArgs({ options: { large: { type: 'boolean', default: false } } });

async function benchmark(label: string, seed: (store: EventStore, pool: DatabasePool) => Promise<void>) {
  const database = await createTestDatabase('bench_rebuild');
  try {
    await migrateReadModel(database.url);
    const pool = await createDatabasePool(database.url);
    const store = await connectEventStore({ eventStoreUrl: undefined, databaseUrl: database.url });
    try {
      await seed(store, pool);
      if (label === 'demo') {
        const version = await pool.oneFirst(sql.unsafe`SELECT current_setting('server_version')`);
        const cpu = cpus()[0]?.model ?? 'unknown CPU';
        console.log(`Machine: ${availableParallelism()} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, PostgreSQL ${String(version)}`);
      }
      const started = performance.now();
      const build = await rebuildIntoShadow(pool, store, readModelProjections);
      const seconds = (performance.now() - started) / 1000;
      const rate = build.eventsApplied / seconds;
      const { setupMs, applyMs, indexMs } = build.timings;
      console.log(
        `${label}: ${build.eventsApplied.toLocaleString('en-US')} events rebuilt in ${seconds.toFixed(1)} s = ` +
          `${Math.round(rate).toLocaleString('en-US')} events/s ${verdict(build.eventsApplied, rate)}`,
      );
      console.log(
        `  of which: shadow tables made in ${(setupMs / 1000).toFixed(2)} s, history applied in ${(applyMs / 1000).toFixed(2)} s ` +
          `(${Math.round(build.eventsApplied / (applyMs / 1000)).toLocaleString('en-US')} events/s), indexes built in ${(indexMs / 1000).toFixed(2)} s`,
      );
    } finally {
      await store.close();
      await pool.end();
    }
  } finally {
    await database.drop();
  }
}

await benchmark('demo', async (store, pool) => {
  await ensureCheckpoints(pool, readModelProjections);
  await seedDemoData({ store, pool, catchUpTo: (position) => catchUpTo(pool, store, readModelProjections, position, 120_000) }, { now: new Date() });
});
if (values.large) {
  await benchmark('large', async (store) => {
    console.log(`Seeding ${LARGE_HISTORY_EVENTS.toLocaleString('en-US')} events...`);
    await seedLargeHistory(store, { now: new Date() });
  });
}
