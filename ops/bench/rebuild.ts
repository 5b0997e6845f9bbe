import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { connectEventStore } from '@storage/eventstore/connect';
import type { EventStore } from '@storage/eventstore/port';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { readModelProjections } from '@storage/projector/projections';
import { rebuildIntoShadow } from '@storage/projector/rebuild';
import { catchUpTo, ensureCheckpoints, toProjectedEvent } from '@storage/projector/runner';
import { describeDifference, verifyReadModel } from '@storage/projector/verify';
import { seedDemoData } from '@storage/seed/demo';
import { LARGE_HISTORY_EVENTS, seedLargeHistory } from '@storage/seed/large';
import { createTestDatabase } from '@storage/testing/database';
import { sql } from 'slonik';
import { load, machine, machineBusyMsSince, machineCpu } from './measure.ts';

// `npm run bench:rebuild [-- --large [--template DB] [--verify]]`: how fast a rebuild applies the
// history to the shadow tables, on the demo data and (with --large) on a generated history of over
// a million events. Each history goes into a throwaway database on the test PostgreSQL
// (TEST_POSTGRES_URL). `--template DB` copies a database of that server that already holds the
// large history (a restored /work/wt/large.dump, say) instead of seeding one (minutes); `--verify`
// then also compares the rebuild with its live read model row by row. The peer, on the same
// server in the same run: a plain `INSERT … SELECT` copy of the event table, the floor of any
// rebuild that reads every event once and writes about as many rows.

const TARGET_EVENTS_PER_SECOND = 70_000;

/**
 * Below this many events a rebuild's time is mostly fixed costs (making the shadow tables, a few
 * queries per table per batch, indexing), so a rate says little about throughput.
 */
const SUSTAINED_FROM_EVENTS = 100_000;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function verdict(events: number, rate: number): string {
  if (events < SUSTAINED_FROM_EVENTS) return `(too few events for the ${fmt(TARGET_EVENTS_PER_SECOND)} events/s target: fixed costs dominate)`;
  return `(target ${fmt(TARGET_EVENTS_PER_SECOND)}: ${rate >= TARGET_EVENTS_PER_SECOND ? 'met' : 'not met'})`;
}

const { values } = parseArgs({
  options: {
    large: { type: 'boolean', default: false },
    /** A database on the same server holding the large history, copied instead of seeding one. */
    template: { type: 'string' },
    verify: { type: 'boolean', default: false },
  },
});

/** The floor: the event table copied by the server alone, nothing leaving it. */
async function peer(pool: DatabasePool): Promise<{ seconds: number; rows: number }> {
  await pool.query(sql.unsafe`CREATE TABLE peer_events (LIKE event_store.events)`);
  const started = performance.now();
  const copied = await pool.query(sql.unsafe`INSERT INTO peer_events SELECT * FROM event_store.events`);
  const seconds = (performance.now() - started) / 1000;
  await pool.query(sql.unsafe`DROP TABLE peer_events`);
  return { seconds, rows: copied.rowCount };
}

/** Seconds to read the whole log and decode it as the rebuild does (5,000 at a time, the next batch read while one is decoded), applying nothing. */
async function readAndDecode(store: EventStore): Promise<number> {
  const started = performance.now();
  let next = store.readAll({ after: null, limit: 5000 });
  for (;;) {
    const batch = await next;
    if (batch.length === 0) break;
    next = store.readAll({ after: batch[batch.length - 1]!.position, limit: 5000 });
    batch.map(toProjectedEvent);
  }
  return (performance.now() - started) / 1000;
}

type Preparation =
  | { template: string }
  | {
      seed: (store: EventStore, pool: DatabasePool) => Promise<void>;
      /** Whether the seed builds the live read model too (verify compares against it). */
      projected: boolean;
    };

async function benchmark(label: string, prepare: Preparation) {
  const database = await createTestDatabase('bench_rebuild', 'template' in prepare ? prepare.template : undefined);
  try {
    await migrateReadModel(database.url);
    const pool = await createDatabasePool(database.url);
    const store = await connectEventStore({ eventStoreUrl: undefined, databaseUrl: database.url });
    try {
      if ('seed' in prepare) await prepare.seed(store, pool);
      console.log(`${label}: load average (1/5/15 min) before ${load()}`);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const machineBefore = machineCpu();
      const build = await rebuildIntoShadow(pool, store, readModelProjections);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const machineBusyMs = machineBusyMsSince(machineBefore);
      const rate = build.eventsApplied / seconds;
      const { setupMs, applyMs, indexMs, apply } = build.timings;
      console.log(`  rebuild: ${fmt(build.eventsApplied)} events in ${seconds.toFixed(1)} s = ${fmt(rate)} events/s ${verdict(build.eventsApplied, rate)}`);
      console.log(
        `    shadow tables made in ${(setupMs / 1000).toFixed(2)} s, history applied in ${(applyMs / 1000).toFixed(2)} s ` +
          `(${fmt(build.eventsApplied / (applyMs / 1000))} events/s), indexes built in ${(indexMs / 1000).toFixed(2)} s; ` +
          `this process used ${((used.user + used.system) / 1e6).toFixed(1)} s of CPU (the rest: PostgreSQL, and waiting for a core)`,
      );
      const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      console.log(
        `    applying, on this process's thread: waiting for the log ${s(apply.readWaitMs)}, decoding ${s(apply.decodeMs)}, ` +
          `projecting ${s(apply.projectMs)}, taking the writes ${s(apply.takeWritesMs)}, waiting for the writes ${s(apply.writeWaitMs)}`,
      );
      if (machineBusyMs !== null) {
        const cores = availableParallelism();
        console.log(
          `    the machine's ${cores} cores were busy ${(machineBusyMs / 1000).toFixed(1)} CPU-s of the ${(cores * seconds).toFixed(1)} they had ` +
            `(${Math.round((100 * machineBusyMs) / (cores * seconds * 1000))} %): the same work with every core busy throughout would take ` +
            `${(machineBusyMs / 1000 / cores).toFixed(1)} s`,
        );
      }
      console.log(`  load average after the rebuild ${load()}`);
      if (build.eventsApplied >= SUSTAINED_FROM_EVENTS) {
        const reading = await readAndDecode(store);
        const targetSeconds = build.eventsApplied / TARGET_EVENTS_PER_SECOND;
        const floor = reading + indexMs / 1000;
        console.log(
          `  floor: reading and decoding the whole log alone, as the rebuild does, ${reading.toFixed(1)} s; with the index builds above ` +
            `(${(indexMs / 1000).toFixed(1)} s, nothing else to overlap them with) ${floor.toFixed(1)} s before any row is projected or written, ` +
            `against the target's ${targetSeconds.toFixed(1)} s`,
        );
      }
      const floor = await peer(pool);
      const peerRate = floor.rows / floor.seconds;
      console.log(
        `  peer: INSERT … SELECT of the ${fmt(floor.rows)} event rows in ${floor.seconds.toFixed(1)} s = ${fmt(peerRate)} rows/s; ` +
          `rebuild / peer = ${(rate / peerRate).toFixed(2)}× the peer's rate`,
      );
      if (values.verify && 'seed' in prepare && !prepare.projected) {
        console.log('  verify: skipped (the seeded history has no live read model to compare with; use --template)');
      } else if (values.verify) {
        const verifyStarted = performance.now();
        const verification = await verifyReadModel(pool, store);
        console.log(
          `  verify: ${fmt(verification.rowsCompared)} rows in ${verification.tablesCompared} tables compared with a rebuild from ` +
            `${fmt(verification.eventsApplied)} events in ${((performance.now() - verifyStarted) / 1000).toFixed(1)} s: ` +
            `${verification.differences.length} differences`,
        );
        for (const difference of verification.differences.slice(0, 20)) console.log(`    ${describeDifference(difference)}`);
        if (verification.differences.length > 0) process.exitCode = 1;
      }
      console.log(`  load average at the end ${load()}`);
    } finally {
      await store.close();
      await pool.end();
    }
  } finally {
    await database.drop();
  }
}

const probe = await createTestDatabase('bench_rebuild_probe');
try {
  const pool = await createDatabasePool(probe.url);
  const version = await pool.oneFirst(sql.unsafe`SELECT current_setting('server_version')`);
  await pool.end();
  console.log(`Machine: ${machine()}, ` + `PostgreSQL ${String(version)}, Node ${process.version}`);
} finally {
  await probe.drop();
}

await benchmark('demo', {
  projected: true,
  seed: async (store, pool) => {
    await ensureCheckpoints(pool, readModelProjections);
    await seedDemoData({ store, pool, catchUpTo: (position) => catchUpTo(pool, store, readModelProjections, position, 120_000) }, { now: new Date() });
  },
});
if (values.large) {
  if (values.template) {
    await benchmark(`large (a copy of ${values.template})`, { template: values.template });
  } else {
    await benchmark('large', {
      projected: false,
      seed: async (store) => {
        console.log(`Seeding ${fmt(LARGE_HISTORY_EVENTS)} events...`);
        await seedLargeHistory(store, { now: new Date() });
      },
    });
  }
}
