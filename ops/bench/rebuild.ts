import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { streams } from '@storage/contracts/events';
import { connectEventStore } from '@storage/eventstore/connect';
import type { AppendResult, EventStore } from '@storage/eventstore/port';
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
import { z } from 'zod';
import { load, machine, machineBusyMsSince, machineCpu, startRun } from './measure.ts';

// `npm run bench:rebuild [-- --demo-from DB] [--large [--mix all,business] [--template DB]] [--verify]`: how fast a
// rebuild applies the history to the shadow tables, on the demo data and (with --large) on a
// generated history of over a million events. Each history goes into a throwaway database on the
// test PostgreSQL (TEST_POSTGRES_URL). `--template DB` copies a database of that server that
// already holds the large history (a restored /work/wt/large.dump, say) instead of seeding one
// (minutes); `--verify` then also compares the rebuild with its live read model row by row.
// `--demo-from DB` likewise copies the demo history and its read model from a database that holds
// them (one `bench:seed --keep` left, say) instead of seeding it. The
// peer, on the same server in the same run: a plain `INSERT … SELECT` copy of the event table, the
// floor of any rebuild that reads every event once and writes about as many rows.
//
// A rate is only as good as its mix: 850,000 of the large history's 1,080,420 events (79 %) are
// lock heartbeats, one of the cheapest events to apply, and a history of leases, invoices and
// payments rebuilds several times slower per event. So each history's share of heartbeats is
// printed beside its rate, and --large runs two mixes (--mix picks): `all`, the large history as
// generated, and `business`, the same history without the heartbeat streams (230,420 events, seeded
// each run, also with --template).

const TARGET_EVENTS_PER_SECOND = 70_000;

/**
 * Below this many events a rebuild's time is mostly fixed costs (making the shadow tables, a few
 * queries per table per batch, indexing), so a rate says little about throughput.
 */
const SUSTAINED_FROM_EVENTS = 100_000;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** The target was set on the large history as generated (79 % heartbeats); other mixes are reported against none. */
function verdict(events: number, rate: number, targeted: boolean): { text: string; met: boolean | null } {
  if (events < SUSTAINED_FROM_EVENTS)
    return { text: `(too few events for the ${fmt(TARGET_EVENTS_PER_SECOND)} events/s target: fixed costs dominate)`, met: null };
  if (!targeted)
    return { text: `(no target for this mix: the ${fmt(TARGET_EVENTS_PER_SECOND)} events/s target is the large history's as generated)`, met: null };
  const met = rate >= TARGET_EVENTS_PER_SECOND;
  return { text: `(target ${fmt(TARGET_EVENTS_PER_SECOND)}: ${met ? 'met' : 'not met'})`, met };
}

const { values } = parseArgs({
  options: {
    large: { type: 'boolean', default: false },
    /** The large history's mixes to rebuild, comma separated: all (as generated), business (without the lock heartbeats). */
    mix: { type: 'string', default: 'all,business' },
    /** A database on the same server holding the large history, copied instead of seeding one. */
    template: { type: 'string' },
    /** A database on the same server holding the demo history and its read model, copied instead of seeding it. */
    'demo-from': { type: 'string' },
    verify: { type: 'boolean', default: false },
  },
});
const mixes = values.mix.split(',').map((m) => m.trim());
if (mixes.length === 0 || mixes.some((m) => m !== 'all' && m !== 'business')) throw new Error('--mix must be all, business, or both comma separated');
const run = startRun('rebuild', {
  demoFrom: values['demo-from'],
  large: values.large,
  mix: values.large ? mixes : undefined,
  template: values.template,
  verify: values.verify,
});
/** Each history's figures, by its label, for the results file. */
const histories: Record<string, Record<string, unknown>> = {};

const HEARTBEAT = 'lock_heartbeat_received';
const HEARTBEAT_STREAM_PREFIX = streams.lockHeartbeats('');

/**
 * The store as the business-only seed appends through it: every stream but the lock heartbeat
 * streams goes through; those are left out (nothing else in the history refers to them).
 */
function withoutHeartbeats(store: EventStore): EventStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== 'append') return typeof value === 'function' ? value.bind(target) : value;
      const append: EventStore['append'] = (stream, events, options) =>
        stream.startsWith(HEARTBEAT_STREAM_PREFIX)
          ? Promise.resolve({ nextRevision: -1n, position: { hi: 0n, lo: 0n } } satisfies AppendResult)
          : target.append(stream, events, options);
      return append;
    },
  });
}

/** How much of the history is lock heartbeats, as printed beside its rate. */
async function mixOf(pool: DatabasePool) {
  const Mix = z.object({ events: z.number(), heartbeats: z.number() });
  const { events, heartbeats } = await pool.one(sql.type(Mix)`
    SELECT count(*)::int8 AS events, count(*) FILTER (WHERE type = ${HEARTBEAT})::int8 AS heartbeats FROM event_store.events`);
  const share = events === 0 ? 0 : heartbeats / events;
  return { events, lockHeartbeats: heartbeats, lockHeartbeatShare: share, text: `${Math.round(share * 100)} % lock heartbeats` };
}

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

type Preparation = (
  | { template: string }
  | {
      seed: (store: EventStore, pool: DatabasePool) => Promise<void>;
      /** Whether the seed builds the live read model too (verify compares against it). */
      projected: boolean;
    }
) & {
  /** Whether the events/s target applies (the large history as generated). */
  targeted?: boolean;
};

async function benchmark(label: string, prepare: Preparation) {
  const figures: Record<string, unknown> = {};
  histories[label] = figures;
  const database = await createTestDatabase('bench_rebuild', 'template' in prepare ? prepare.template : undefined);
  try {
    await migrateReadModel(database.url);
    const pool = await createDatabasePool(database.url);
    const store = await connectEventStore({ eventStoreUrl: undefined, databaseUrl: database.url });
    try {
      if ('seed' in prepare) {
        const seeding = performance.now();
        await prepare.seed(store, pool);
        figures.seedSeconds = (performance.now() - seeding) / 1000;
        console.log(`${label}: seeded in ${(figures.seedSeconds as number).toFixed(1)} s`);
      }
      const mix = await mixOf(pool);
      figures.history = { events: mix.events, lockHeartbeats: mix.lockHeartbeats, lockHeartbeatShare: mix.lockHeartbeatShare };
      console.log(`${label}: ${fmt(mix.events)} events, ${mix.text} (${fmt(mix.lockHeartbeats)}); load average (1/5/15 min) before ${load()}`);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const machineBefore = machineCpu();
      const build = await rebuildIntoShadow(pool, store, readModelProjections);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const machineBusyMs = machineBusyMsSince(machineBefore);
      const rate = build.eventsApplied / seconds;
      const { setupMs, applyMs, indexMs, apply } = build.timings;
      const target = verdict(build.eventsApplied, rate, prepare.targeted ?? false);
      console.log(
        `  rebuild: ${fmt(build.eventsApplied)} events (${mix.text}) in ${seconds.toFixed(1)} s = ${fmt(rate)} events/s over this mix ${target.text}`,
      );
      const processCpuSeconds = (used.user + used.system) / 1e6;
      Object.assign(figures, {
        rebuild: {
          eventsApplied: build.eventsApplied,
          seconds,
          eventsPerSecondOverThisMix: rate,
          phasesSeconds: { shadowTables: setupMs / 1000, historyApplied: applyMs / 1000, indexes: indexMs / 1000 },
          historyAppliedEventsPerSecond: build.eventsApplied / (applyMs / 1000),
          applyingOnThisProcessThreadSeconds: {
            waitingForTheLog: apply.readWaitMs / 1000,
            decoding: apply.decodeMs / 1000,
            projecting: apply.projectMs / 1000,
            takingTheWrites: apply.takeWritesMs / 1000,
            waitingForTheWrites: apply.writeWaitMs / 1000,
          },
          thisProcessCpuSeconds: processCpuSeconds,
          machineBusyCpuSeconds: machineBusyMs === null ? null : machineBusyMs / 1000,
        },
        target: { eventsPerSecond: TARGET_EVENTS_PER_SECOND, appliesToThisMix: prepare.targeted ?? false, met: target.met },
      });
      console.log(
        `    shadow tables made in ${(setupMs / 1000).toFixed(2)} s, history applied in ${(applyMs / 1000).toFixed(2)} s ` +
          `(${fmt(build.eventsApplied / (applyMs / 1000))} events/s), indexes built in ${(indexMs / 1000).toFixed(2)} s; ` +
          `this process used ${processCpuSeconds.toFixed(1)} s of CPU (the rest: PostgreSQL, and waiting for a core)`,
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
        const targeted = prepare.targeted ?? false;
        figures.floor = { readingAndDecodingTheLogSeconds: reading, withTheIndexBuildsSeconds: floor, ...(targeted ? { targetSeconds } : {}) };
        console.log(
          `  floor: reading and decoding the whole log alone, as the rebuild does, ${reading.toFixed(1)} s; with the index builds above ` +
            `(${(indexMs / 1000).toFixed(1)} s, nothing else to overlap them with) ${floor.toFixed(1)} s before any row is projected or written` +
            (targeted ? `, against the target's ${targetSeconds.toFixed(1)} s` : ''),
        );
      }
      const floor = await peer(pool);
      const peerRate = floor.rows / floor.seconds;
      figures.peerInsertSelect = { rows: floor.rows, seconds: floor.seconds, rowsPerSecond: peerRate, rebuildOverPeerRate: rate / peerRate };
      console.log(
        `  peer: INSERT … SELECT of the ${fmt(floor.rows)} event rows in ${floor.seconds.toFixed(1)} s = ${fmt(peerRate)} rows/s; ` +
          `rebuild / peer = ${(rate / peerRate).toFixed(2)}× the peer's rate`,
      );
      if (values.verify && 'seed' in prepare && !prepare.projected) {
        console.log('  verify: skipped (the seeded history has no live read model to compare with; use --template)');
        figures.verify = 'skipped: no live read model to compare with';
      } else if (values.verify) {
        const verifyStarted = performance.now();
        const verification = await verifyReadModel(pool, store);
        console.log(
          `  verify: ${fmt(verification.rowsCompared)} rows in ${verification.tablesCompared} tables compared with a rebuild from ` +
            `${fmt(verification.eventsApplied)} events in ${((performance.now() - verifyStarted) / 1000).toFixed(1)} s: ` +
            `${verification.differences.length} differences`,
        );
        figures.verify = { rowsCompared: verification.rowsCompared, tablesCompared: verification.tablesCompared, differences: verification.differences.length };
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
  run.environment.postgres = String(version);
} finally {
  await probe.drop();
}

if (values['demo-from']) {
  await benchmark(`demo (a copy of ${values['demo-from']})`, { template: values['demo-from'] });
} else {
  await benchmark('demo', {
    projected: true,
    seed: async (store, pool) => {
      await ensureCheckpoints(pool, readModelProjections);
      await seedDemoData({ store, pool, catchUpTo: (position) => catchUpTo(pool, store, readModelProjections, position, 120_000) }, { now: new Date() });
    },
  });
}
if (values.large && mixes.includes('all')) {
  if (values.template) {
    await benchmark(`large (a copy of ${values.template})`, { template: values.template, targeted: true });
  } else {
    await benchmark('large', {
      projected: false,
      targeted: true,
      seed: async (store) => {
        console.log(`Seeding ${fmt(LARGE_HISTORY_EVENTS)} events...`);
        await seedLargeHistory(store, { now: new Date() });
      },
    });
  }
}
if (values.large && mixes.includes('business')) {
  await benchmark('large, business only (without the lock heartbeats)', {
    projected: false,
    seed: async (store) => {
      console.log(`Seeding the large history without its lock heartbeat streams...`);
      await seedLargeHistory(withoutHeartbeats(store), { now: new Date() });
    },
  });
}
run.write(histories);
