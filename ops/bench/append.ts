import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { endAllPools } from '@event-driven-io/dumbo';
import { isExpectedVersionConflictError } from '@event-driven-io/emmett';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { type NewEvent, WrongExpectedRevisionError } from '@storage/eventstore/port';
import { createPostgresEventStore } from '@storage/eventstore/postgres';
import pg from 'pg';
import { adminQuery, droppable, load, machine, median, percentile, serverUrl, startRun } from './measure.ts';

// `npm run bench:append [-- --repeats 5 --seconds 2 --pool 10 --writers 1,5,20]`: appending one
// event, side by side on the same server with the same pool size:
// - ours: this event store (createPostgresEventStore), its append as the product makes it;
// - emmett: Emmett's PostgreSQL event store (@event-driven-io/emmett-postgresql);
// - raw: a single-row INSERT into a plain table keyed by (stream, revision), autocommitted.
// Two workloads at each number of concurrent writers: every append to a new stream (expected: no
// stream), and one hot stream every writer appends to with the revision it last knew (a lost race
// is a conflict: the writer learns the stream's revision and tries again; ours says it in the
// error, the peers need a read). Each cell runs --seconds; cells are interleaved (workload, writers,
// then the three stores in an order rotated each repeat), and each figure is the median of the
// repeats. A throwaway database on the server of DATABASE_URL, else TEST_POSTGRES_URL, else the
// local PostgreSQL on 5432.

const TARGET_VS_EMMETT = 1.2;
const TARGET_VS_RAW = 0.6;

const { values } = parseArgs({
  options: {
    repeats: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '2' },
    pool: { type: 'string', default: '10' },
    writers: { type: 'string', default: '1,5,20' },
    keep: { type: 'boolean', default: false },
  },
});
const repeats = Number(values.repeats);
const cellMs = Number(values.seconds) * 1000;
const poolSize = Number(values.pool);
const writerCounts = values.writers.split(',').map(Number);
if (!Number.isInteger(repeats) || repeats < 1) throw new Error('--repeats must be a whole number of at least 1');
if (!(cellMs > 0)) throw new Error('--seconds must be a positive number');
if (!Number.isInteger(poolSize) || poolSize < 1) throw new Error('--pool must be a whole number of at least 1');
if (!writerCounts.every((n) => Number.isInteger(n) && n >= 1)) throw new Error('--writers must be whole numbers of at least 1, comma separated');
const benchRun = startRun('append', { repeats, secondsPerCell: cellMs / 1000, poolSize, writers: writerCounts, keep: values.keep });

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** An event as the product appends them: a customer added by a member of staff. */
function newEvent(): NewEvent {
  const customerId = randomUUID();
  return {
    id: randomUUID(),
    type: 'customer_added',
    data: {
      customerId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada-${customerId.slice(0, 8)}@example.test`,
      phone: '+1 555 0100',
      address: { line1: '12 Analytical Row', city: 'Springfield', postalCode: '12345', country: 'US' },
      facilityId: '4b7c1f0e-3d2a-4c55-9a1e-6f0d2b8c9e11',
    },
    metadata: {
      actor: { type: 'staff', id: '0f8e5d2c-1b3a-4e6f-8d7c-9a0b1c2d3e4f' },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
      occurredAt: new Date().toISOString(),
    },
  };
}

/** What a writer does: append one event to a new stream, or to the hot stream at the revision it knows. */
interface Subject {
  name: string;
  /** Appends to a stream that does not exist yet. */
  appendNew(stream: string): Promise<void>;
  /** Appends after `known` (the revision of the stream's last event, null: none); the revision after it, or a conflict with the stream's revision. */
  appendHot(stream: string, known: bigint | null): Promise<{ ok: true; revision: bigint } | { ok: false; revision: bigint | null }>;
  close(): Promise<void>;
}

async function ours(url: string): Promise<Subject> {
  const pool = droppable(new pg.Pool({ connectionString: url, max: poolSize }));
  const store = await createPostgresEventStore({ pool });
  await store.migrate();
  return {
    name: 'ours',
    async appendNew(stream) {
      await store.append(stream, [newEvent()], { expectedRevision: 'no_stream' });
    },
    async appendHot(stream, known) {
      try {
        const result = await store.append(stream, [newEvent()], { expectedRevision: known ?? 'no_stream' });
        return { ok: true, revision: result.nextRevision };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        return { ok: false, revision: error.actual === 'no_stream' ? null : error.actual };
      }
    },
    async close() {
      await store.close();
      await pool.end();
    },
  };
}

async function emmett(url: string): Promise<Subject> {
  const pool = droppable(new pg.Pool({ connectionString: url, max: poolSize }));
  const store = getPostgreSQLEventStore(url, { connectionOptions: { pool } });
  await store.schema.migrate();
  const append = (stream: string, expectedStreamVersion: bigint | 'no_stream') => {
    const { type, data, metadata } = newEvent();
    return store.appendToStream(stream, [{ type, data, metadata }], {
      expectedStreamVersion: expectedStreamVersion === 'no_stream' ? 'STREAM_DOES_NOT_EXIST' : expectedStreamVersion,
    });
  };
  return {
    name: 'emmett',
    async appendNew(stream) {
      await append(stream, 'no_stream');
    },
    async appendHot(stream, known) {
      // Emmett counts a stream's events (its version is 1 after the first); revisions count from 0.
      try {
        const result = await append(stream, known === null ? 'no_stream' : known + 1n);
        return { ok: true, revision: result.nextExpectedStreamVersion - 1n };
      } catch (error) {
        if (!isExpectedVersionConflictError(error)) throw error;
        // Its conflict does not say where the stream is: read it.
        const { rows } = await pool.query<{ position: string }>('SELECT stream_position AS position FROM emt_streams WHERE stream_id = $1', [stream]);
        return { ok: false, revision: rows[0] ? BigInt(rows[0].position) - 1n : null };
      }
    },
    async close() {
      await store.close();
      await pool.end();
    },
  };
}

async function raw(url: string): Promise<Subject> {
  const pool = droppable(new pg.Pool({ connectionString: url, max: poolSize }));
  await pool.query(`CREATE TABLE raw_events (
    global_position bigserial NOT NULL,
    stream_name text NOT NULL,
    revision bigint NOT NULL,
    id uuid NOT NULL,
    type text NOT NULL,
    data jsonb NOT NULL,
    metadata jsonb NOT NULL,
    PRIMARY KEY (stream_name, revision)
  )`);
  const insert = (stream: string, revision: bigint) => {
    const event = newEvent();
    return pool.query('INSERT INTO raw_events (stream_name, revision, id, type, data, metadata) VALUES ($1, $2, $3, $4, $5, $6)', [
      stream,
      revision.toString(),
      event.id,
      event.type,
      JSON.stringify(event.data),
      JSON.stringify(event.metadata),
    ]);
  };
  return {
    name: 'raw',
    async appendNew(stream) {
      await insert(stream, 0n);
    },
    async appendHot(stream, known) {
      const revision = known === null ? 0n : known + 1n;
      try {
        await insert(stream, revision);
        return { ok: true, revision };
      } catch (error) {
        if (!(error instanceof pg.DatabaseError && error.code === '23505')) throw error;
        const { rows } = await pool.query<{ revision: string | null }>('SELECT max(revision) AS revision FROM raw_events WHERE stream_name = $1', [stream]);
        return { ok: false, revision: rows[0]?.revision == null ? null : BigInt(rows[0].revision) };
      }
    },
    async close() {
      await pool.end();
    },
  };
}

type Workload = 'new stream' | 'hot stream';

interface Cell {
  eventsPerSecond: number;
  p50: number;
  p99: number;
  conflicts: number;
}

/** `writers` concurrent loops appending for cellMs; latency of each successful append. */
async function run(subject: Subject, workload: Workload, writers: number): Promise<Cell> {
  const hot = `hot-${randomUUID()}`;
  // The hot stream exists before the race (Emmett checks nothing on an append to a stream it is told does not exist).
  if (workload === 'hot stream') await subject.appendHot(hot, null);
  const latencies: number[] = [];
  let conflicts = 0;
  const end = performance.now() + cellMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      let known: bigint | null = 0n;
      while (performance.now() < end) {
        const t0 = performance.now();
        if (workload === 'new stream') {
          await subject.appendNew(`customer-${randomUUID()}`);
          latencies.push(performance.now() - t0);
          continue;
        }
        const outcome = await subject.appendHot(hot, known);
        known = outcome.revision;
        if (outcome.ok) latencies.push(performance.now() - t0);
        else conflicts++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { eventsPerSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), conflicts };
}

async function main() {
  const name = `bench_append_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const subjects: Subject[] = [];
  try {
    subjects.push(await ours(databaseUrl), await emmett(databaseUrl), await raw(databaseUrl));
    const version = String((await adminQuery("SELECT current_setting('server_version') AS v")).rows[0]!.v);
    console.log(`Machine: ${machine()}, ` + `PostgreSQL ${version}; pool of ${poolSize} connections each; load average (1/5/15 min) at start ${load()}`);
    benchRun.environment.postgres = version;
    console.log(`${repeats} interleaved repeats of ${cellMs / 1000} s per cell; figures are medians of the repeats`);

    // Warm up: schemas, prepared plans, connections.
    for (const subject of subjects) for (const workload of ['new stream', 'hot stream'] as const) await run(subject, workload, Math.min(poolSize, 5));

    const workloads: Workload[] = ['new stream', 'hot stream'];
    const results = new Map<string, Cell[]>();
    const key = (workload: Workload, writers: number, subject: string) => `${workload}/${writers}/${subject}`;
    for (let r = 0; r < repeats; r++) {
      for (const workload of workloads) {
        for (const writers of writerCounts) {
          for (let i = 0; i < subjects.length; i++) {
            const subject = subjects[(i + r) % subjects.length]!;
            const cell = await run(subject, workload, writers);
            const k = key(workload, writers, subject.name);
            results.set(k, [...(results.get(k) ?? []), cell]);
          }
        }
      }
      console.log(`  repeat ${r + 1}/${repeats} done; load ${load()}`);
    }

    let met = true;
    const figuresOf: Record<string, Record<string, unknown>> = {};
    for (const workload of workloads) {
      figuresOf[workload] = {};
      console.log(`\n${workload === 'new stream' ? 'One event to a new stream each' : 'One hot stream, expected revisions (writers racing)'}:`);
      for (const writers of writerCounts) {
        const figures = Object.fromEntries(
          subjects.map((s) => {
            const cells = results.get(key(workload, writers, s.name))!;
            return [
              s.name,
              {
                eventsPerSecond: median(cells.map((c) => c.eventsPerSecond)),
                p50: median(cells.map((c) => c.p50)),
                p99: median(cells.map((c) => c.p99)),
                conflicts: median(cells.map((c) => c.conflicts)),
              },
            ];
          }),
        ) as Record<string, Cell>;
        const line = (n: string) => {
          const f = figures[n]!;
          const conflicts = workload === 'hot stream' ? `, ${fmt(f.conflicts / (cellMs / 1000))} conflicts/s` : '';
          return `${n} ${fmt(f.eventsPerSecond)} events/s (p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms${conflicts})`;
        };
        const vsEmmett = figures.ours!.eventsPerSecond / figures.emmett!.eventsPerSecond;
        const vsRaw = figures.ours!.eventsPerSecond / figures.raw!.eventsPerSecond;
        const ok = vsEmmett >= TARGET_VS_EMMETT && vsRaw >= TARGET_VS_RAW;
        if (!ok) met = false;
        const perStore = (n: string) => {
          const f = figures[n]!;
          return {
            eventsPerSecond: f.eventsPerSecond,
            p50Ms: f.p50,
            p99Ms: f.p99,
            ...(workload === 'hot stream' ? { conflictsPerSecond: f.conflicts / (cellMs / 1000) } : {}),
          };
        };
        figuresOf[workload]![`${writers} writers`] = {
          ours: perStore('ours'),
          emmett: perStore('emmett'),
          raw: perStore('raw'),
          oursOverEmmett: vsEmmett,
          oursOverRaw: vsRaw,
          targetMet: ok,
        };
        console.log(`  ${String(writers).padStart(2)} writers: ${line('ours')}; ${line('emmett')}; ${line('raw')}`);
        console.log(
          `             ours/emmett ${vsEmmett.toFixed(2)}×, ours/raw ${vsRaw.toFixed(2)}× ` +
            `(target ≥${TARGET_VS_EMMETT}× Emmett and ≥${TARGET_VS_RAW}× raw: ${ok ? 'met' : 'not met'})`,
        );
      }
    }
    console.log(`\nTarget at every concurrency: ${met ? 'met' : 'not met'}. Load average at end ${load()}`);
    benchRun.write({
      medianOfRepeats: true,
      'one event to a new stream each': figuresOf['new stream'],
      'one hot stream, expected revisions (writers racing)': figuresOf['hot stream'],
      target: { oursOverEmmettAtLeast: TARGET_VS_EMMETT, oursOverRawAtLeast: TARGET_VS_RAW, metAtEveryConcurrency: met },
    });
  } finally {
    for (const subject of subjects) await subject.close();
    // Emmett's schema migration opens a pool of its own (dumbo's, by connection string).
    await endAllPools();
    if (values.keep) console.log(`Kept the database ${name}`);
    else await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

await main();
