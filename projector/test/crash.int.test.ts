import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { NewEvent } from '@storage/eventstore/port';
import { createPostgresEventStore } from '@storage/eventstore/postgres';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Kills the projector process (SIGKILL) in the middle of its work, starts it again, and checks
// that every event had its effect exactly once. total_units is a counter (+1 per unit_added),
// so an event applied twice would show, and one lost would too.

const STREAMS = 60;
const EVENTS_PER_STREAM = 250;
const TOTAL = STREAMS * EVENTS_PER_STREAM;
const mainScript = fileURLToPath(new URL('../src/main.ts', import.meta.url));

function startProjectorProcess(databaseUrl: string): ChildProcess {
  return spawn(process.execPath, [mainScript], {
    env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: '', EVENTSTORE_URL: '' },
    stdio: 'ignore',
  });
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('projector killed mid-batch', () => {
  let database: TestDatabase;
  let client: pg.Client;
  const facilityId = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase('projector_crash');
    const store = await createPostgresEventStore({ connectionString: database.url });
    await store.migrate();
    const meta = () => ({
      actor: { type: 'system' as const },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
      occurredAt: new Date().toISOString(),
    });
    await store.append(
      `facility-${facilityId}`,
      [
        {
          id: randomUUID(),
          type: 'facility_added',
          data: { facilityId, name: 'Crash Test Storage', address: '1 Test Way', phone: null, managerName: null },
          metadata: meta(),
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    for (let s = 0; s < STREAMS; s++) {
      const events: NewEvent[] = Array.from({ length: EVENTS_PER_STREAM }, (_, i) => ({
        id: randomUUID(),
        type: 'unit_added',
        data: {
          unitId: randomUUID(),
          facilityId,
          unitNumber: `U-${s}-${i}`,
          building: `B${s}`,
          size: '10x10',
          monthlyRate: '120.00',
          status: 'available',
          description: null,
        },
        metadata: meta(),
      }));
      await store.append(`bulk-${s}`, events, { expectedRevision: 'no_stream' });
    }
    await store.close();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  const unitCount = async () => Number((await client.query('SELECT count(*) AS n FROM units')).rows[0]?.n ?? 0);
  /** Whether every projection's checkpoint has reached the newest event of the log: nothing is left to apply. */
  const caughtUp = async () =>
    Number(
      (
        await client.query(`
          SELECT count(*) AS behind FROM projection_checkpoints c
          WHERE c.position_hi IS NULL
             OR (c.position_hi, c.position_lo) < (
               SELECT transaction_id::text::numeric, global_position::numeric FROM event_store.events
               ORDER BY transaction_id DESC, global_position DESC LIMIT 1)`)
      ).rows[0]?.behind,
    ) === 0;

  it('loses and duplicates nothing after a restart', async () => {
    const first = startProjectorProcess(database.url);
    await waitUntil(async () => {
      const exists = (await client.query("SELECT to_regclass('public.units') AS t")).rows[0]?.t;
      return Boolean(exists) && (await unitCount()) > 0;
    }, 60_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const seenAtKill = await unitCount();
    expect(seenAtKill).toBeGreaterThan(0);
    expect(seenAtKill).toBeLessThan(TOTAL);

    const second = startProjectorProcess(database.url);
    try {
      await waitUntil(async () => (await unitCount()) >= TOTAL, 90_000);
      // Every projection through the log's last event: an event applied twice would show now.
      await waitUntil(caughtUp, 30_000);
      const facility = (await client.query('SELECT total_units FROM facilities WHERE id = $1', [facilityId])).rows[0];
      expect(await unitCount()).toBe(TOTAL);
      expect(facility?.total_units).toBe(TOTAL);
    } finally {
      second.kill('SIGTERM');
      await new Promise((r) => second.once('exit', r));
    }
  }, 180_000);
});
