import { randomUUID } from 'node:crypto';
import { READ_MODEL_QUEUE } from '@storage/contracts/read-model';
import type { Position } from '@storage/eventstore/port';
import { createPostgresEventStore, type PostgresEventStore } from '@storage/eventstore/postgres';
import { failedProjections, waitForProjections } from '@storage/platform/checkpoints';
import { readConfig } from '@storage/platform/config';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { projectorLag, readiness } from '@storage/platform/health';
import { migrateReadModel } from '@storage/platform/migrate';
import { createQueue, queueConnection } from '@storage/platform/queues';
import type { Projection } from '@storage/projector/projection';
import { readModelProjections } from '@storage/projector/projections';
import { customersProjection } from '@storage/projector/projections/customers';
import { metricsProjection } from '@storage/projector/projections/metrics';
import { catchUp, describePosition, ensureCheckpoints, projectionLanes, type RunnerOptions } from '@storage/projector/runner';
import { startProjector } from '@storage/projector/service';
import { verifyReadModel } from '@storage/projector/verify';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// A projection that fails on one event stops there, alone with the projections that read its
// tables (or whose tables it reads); it is recorded with the event, retried with a growing delay,
// and once the cause is gone it applies the event and what follows, exactly once. Meanwhile the
// other projections keep up and a command's read-your-writes wait does not wait for it.

/** The ids of the events the projection under test cannot take (until a test clears them). */
type Poison = Set<string>;

/** The real projection, failing on the poisoned events: by throwing, or by writing a row its table refuses. */
function failingOn(poison: Poison, projection: Projection, how: 'throws' | 'writes a bad row'): Projection {
  return {
    ...projection,
    async apply(rows, event) {
      if (poison.has(event.id) && how === 'throws') throw new Error(`${projection.name} bug: cannot take this event`);
      await projection.apply(rows, event);
      if (poison.has(event.id) && event.type === 'customer_added') {
        await rows.update('customers', event.data.customerId, { first_name: null as unknown as string });
      }
    },
  };
}

const Checkpoint = z.object({ name: z.string(), position: z.string().nullable() });

/** A database with the read model, its event store, and the helpers each suite appends and projects with. */
function useProjectorDatabase(prefix: string) {
  const context = {} as {
    database: TestDatabase;
    store: PostgresEventStore;
    pool: DatabasePool;
  };
  beforeAll(async () => {
    context.database = await createTestDatabase(prefix);
    await migrateReadModel(context.database.url);
    context.store = await createPostgresEventStore({ connectionString: context.database.url });
    await context.store.migrate();
    context.pool = await createDatabasePool(context.database.url);
  });
  afterAll(async () => {
    await context.pool?.end();
    await context.store?.close();
    await context.database?.drop();
  });
  const append = async (stream: string, type: string, data: Record<string, unknown>, schemaVersion = 1) => {
    const id = randomUUID();
    const metadata = {
      actor: { type: 'system' as const },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion,
      occurredAt: new Date().toISOString(),
    };
    const { position } = await context.store.append(stream, [{ id, type, data, metadata }], { expectedRevision: 'any' });
    return { id, position };
  };
  const addCustomer = (facilityId: string, lastName: string) => {
    const customerId = randomUUID();
    return append(`customer-${customerId}`, 'customer_added', {
      customerId,
      firstName: 'Fail',
      lastName,
      email: `${lastName.toLowerCase()}@example.com`,
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      status: 'active',
      facilityId,
    });
  };
  const addFacility = async () => {
    const facilityId = randomUUID();
    await append(`facility-${facilityId}`, 'facility_added', {
      facilityId,
      name: `Yard ${facilityId.slice(0, 6)}`,
      address: '1 Way',
      phone: null,
      managerName: null,
    });
    return facilityId;
  };
  const checkpoints = async () =>
    new Map(
      (
        await context.pool.any(sql.type(Checkpoint)`
          SELECT name, CASE WHEN position_hi IS NULL THEN NULL ELSE position_hi::text || '/' || position_lo::text END AS position
          FROM projection_checkpoints`)
      ).map((row) => [row.name, row.position]),
    );
  /**
   * Catches up until the projection `healthy` has passed `position` (the store shows an event
   * once every older transaction on the server has ended, so one pass may not reach it yet).
   */
  const projectUntil = async (projections: Projection[], options: RunnerOptions, healthy: string, position: Position) => {
    for (const deadline = Date.now() + 20_000; ; ) {
      await catchUp(context.pool, context.store, projections, options);
      if ((await checkpoints()).get(healthy) === describePosition(position)) return;
      if (Date.now() > deadline) throw new Error(`${healthy} did not reach ${describePosition(position)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { context, append, addCustomer, addFacility, checkpoints, projectUntil };
}

describe('a projection that throws on an event', () => {
  const { context, addCustomer, addFacility, append, checkpoints, projectUntil } = useProjectorDatabase('failing_projection');
  const poison: Poison = new Set();
  const projections = readModelProjections.map((p) => (p === metricsProjection ? failingOn(poison, p, 'throws') : p));
  const logged: string[] = [];
  let clock = Date.now();
  const options: RunnerOptions = { now: () => new Date(clock), log: (message) => logged.push(message) };
  let before: { id: string; position: Position };
  let poisoned: { id: string; position: Position };
  let head: Position;
  const customersAdded = 6;

  beforeAll(async () => {
    await ensureCheckpoints(context.pool, projections);
    const facilityId = await addFacility();
    await addCustomer(facilityId, 'One');
    before = await addCustomer(facilityId, 'Two');
    poisoned = await addCustomer(facilityId, 'Poison');
    poison.add(poisoned.id);
    await addCustomer(facilityId, 'Four');
    head = (await addCustomer(facilityId, 'Five')).position;
    await projectUntil(projections, options, 'staff', head);
  });

  it('lets every other projection reach the head, stops it before the event, and records the event and the error', async () => {
    const positions = await checkpoints();
    for (const p of projections) {
      expect(positions.get(p.name), p.name).toBe(describePosition(p.name === 'metrics' ? before.position : head));
    }
    // The customers projection, in another lane, took the event the metrics one refused.
    expect(await context.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM customers`)).toBe(5);
    const [failure, ...others] = await failedProjections(context.pool);
    expect(others).toEqual([]);
    expect(failure).toMatchObject({
      projection: 'metrics',
      eventId: poisoned.id,
      eventType: 'customer_added',
      position: poisoned.position,
      error: 'metrics bug: cannot take this event',
      attempts: 1,
      nextAttemptAt: new Date(clock + 1000).toISOString(),
      holds: [],
    });
    expect(logged.find((line) => line.includes(poisoned.id))).toMatch(/^projection metrics failed on event .+ attempt 1; next attempt in 1 s/);
  });

  it('retries it only when due, with a delay that doubles', async () => {
    clock += 999;
    await catchUp(context.pool, context.store, projections, options);
    expect((await failedProjections(context.pool))[0]?.attempts).toBe(1);

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const failure = (await failedProjections(context.pool))[0]!;
      expect(failure.attempts).toBe(attempt);
      delays.push(Date.parse(failure.nextAttemptAt) - Date.parse(failure.lastFailedAt));
      clock = Date.parse(failure.nextAttemptAt);
      await catchUp(context.pool, context.store, projections, options);
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000]);
    expect((await checkpoints()).get('metrics')).toBe(describePosition(before.position));
  });

  it('keeps the others projecting new events, and a command waits only for them', async () => {
    const facilityId = await addFacility();
    const latest = await addCustomer(facilityId, 'Six');
    await projectUntil(projections, options, 'customers', latest.position);
    head = latest.position;
    const positions = await checkpoints();
    expect(positions.get('activities')).toBe(describePosition(head));
    expect(positions.get('metrics')).toBe(describePosition(before.position));

    const started = performance.now();
    expect(await waitForProjections(context.pool, head, 2000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
    // A healthy projection that has not passed the position is still waited for, up to the timeout.
    const unprojected = await append(`probe-${randomUUID()}`, 'probe_recorded', {});
    expect(await waitForProjections(context.pool, unprojected.position, 300)).toBe(false);
    await projectUntil(projections, options, 'staff', unprojected.position);
    head = unprojected.position;
  });

  it('names it, with the event, in the health answer: listed while young, failing ready once beyond the lag bound', async () => {
    const lag = await projectorLag(context.pool, context.store);
    expect(lag.failingProjections).toEqual([
      expect.objectContaining({
        projection: 'metrics',
        eventId: poisoned.id,
        eventType: 'customer_added',
        position: describePosition(poisoned.position),
        holds: [],
      }),
    ]);
    // The error's text may quote data: the public answer leaves it to the log.
    expect(JSON.stringify(lag)).not.toContain('bug');

    const queue = createQueue(READ_MODEL_QUEUE, queueConnection({ redisUrl: undefined, databaseUrl: context.database.url }));
    try {
      const young = await readiness({ pool: context.pool, store: context.store, queue });
      expect(young.checks.projectorLag).toMatchObject({ ok: true, failingProjections: [expect.objectContaining({ projection: 'metrics' })] });
      let old = await readiness({ pool: context.pool, store: context.store, queue, maxLagSeconds: 0 });
      for (const deadline = Date.now() + 5000; old.checks.projectorLag.ok && Date.now() < deadline; ) {
        await new Promise((r) => setTimeout(r, 200));
        old = await readiness({ pool: context.pool, store: context.store, queue, maxLagSeconds: 0 });
      }
      expect(old.status).toBe('not ready');
      expect(old.failing).toEqual(['projectorLag']);
      expect(old.checks.projectorLag.error).toContain(`the metrics projection fails on event ${poisoned.id} (customer_added), 5 attempts so far`);
    } finally {
      await queue.close();
    }
  });

  it('once the cause is gone, applies the event and everything after it exactly once', async () => {
    poison.clear();
    clock = Date.parse((await failedProjections(context.pool))[0]!.nextAttemptAt);
    await catchUp(context.pool, context.store, projections, options);
    expect(await failedProjections(context.pool)).toEqual([]);
    expect([...(await checkpoints()).values()]).toEqual(projections.map(() => describePosition(head)));
    expect(logged.at(-1)).toBe(`projection metrics recovered: event ${poisoned.id} applied after 5 failed attempts`);
    // A counter: an event applied twice, or skipped, would show.
    expect(await context.pool.oneFirst(sql.unsafe`SELECT sum(customers_added)::int FROM metrics_daily`)).toBe(customersAdded);
    expect((await verifyReadModel(context.pool, context.store)).differences).toEqual([]);
  });
});

describe('a projection whose write fails on an event, in a lane with others', () => {
  const { context, addCustomer, addFacility, checkpoints, projectUntil } = useProjectorDatabase('failing_lane');
  const poison: Poison = new Set();
  const projections = readModelProjections.map((p) => (p === customersProjection ? failingOn(poison, p, 'writes a bad row') : p));
  let clock = Date.now();
  const options: RunnerOptions = { now: () => new Date(clock) };
  // The lane the customers projection is in (runner.unit.test.ts pins which one that is).
  const lane = projectionLanes(readModelProjections)
    .find((l) => l.some((p) => p.name === 'customers'))!
    .map((p) => p.name);
  let before: Position;
  let poisoned: { id: string; position: Position };
  let head: Position;

  beforeAll(async () => {
    await ensureCheckpoints(context.pool, projections);
    const facilityId = await addFacility();
    before = (await addCustomer(facilityId, 'One')).position;
    poisoned = await addCustomer(facilityId, 'Poison');
    poison.add(poisoned.id);
    head = (await addCustomer(facilityId, 'Three')).position;
    await projectUntil(projections, options, 'metrics', head);
  });

  it('holds the projections that read its tables, and those it reads, at the event; the rest reach the head', async () => {
    const positions = await checkpoints();
    for (const p of projections) expect(positions.get(p.name), p.name).toBe(describePosition(lane.includes(p.name) ? before : head));
    const failures = await failedProjections(context.pool);
    expect(failures).toEqual([
      expect.objectContaining({
        projection: 'customers',
        eventId: poisoned.id,
        attempts: 1,
        holds: lane.filter((name) => name !== 'customers'),
      }),
    ]);
    expect(failures[0]!.error).toMatch(/writing customers failed: .*null value in column "first_name"/);
    // Nothing of the refused event or after it reached the lane's tables.
    expect(await context.pool.anyFirst(sql.unsafe`SELECT last_name FROM customers ORDER BY last_name`)).toEqual(['One']);
    expect(await waitForProjections(context.pool, head, 2000)).toBe(true);
  });

  it('lets the whole lane go on from the event once the write succeeds, and the read model equals a rebuild', async () => {
    poison.clear();
    clock += 1000;
    await projectUntil(projections, options, 'customers', head);
    expect(await failedProjections(context.pool)).toEqual([]);
    expect(new Set((await checkpoints()).values())).toEqual(new Set([describePosition(head)]));
    expect(await context.pool.anyFirst(sql.unsafe`SELECT last_name FROM customers ORDER BY last_name`)).toEqual(['One', 'Poison', 'Three']);
    // One activity per customer added: the held lane-mates applied the event once, too.
    expect(await context.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM activities WHERE type = 'customer_added'`)).toBe(3);
    expect((await verifyReadModel(context.pool, context.store)).differences).toEqual([]);
  });
});

describe('an event this release cannot read', () => {
  const { context, addFacility, append, checkpoints } = useProjectorDatabase('unreadable_event');
  const options: RunnerOptions = {};

  it('stops every lane before it, records it once per lane, and a command waits for none of them', async () => {
    await ensureCheckpoints(context.pool, readModelProjections);
    await addFacility();
    const staffId = randomUUID();
    const newer = await append(`staff-${staffId}`, 'staff_registered', { staffId }, 99);
    const facilityId = await addFacility();
    for (const deadline = Date.now() + 10_000; (await failedProjections(context.pool)).length < 6 && Date.now() < deadline; ) {
      await catchUp(context.pool, context.store, readModelProjections, options);
      await new Promise((r) => setTimeout(r, 50));
    }
    const failures = await failedProjections(context.pool);
    expect(failures.map((f) => f.projection).sort()).toEqual(['billing_runs', 'gateway_keys', 'metrics', 'reservations', 'settings', 'staff']);
    for (const f of failures) {
      expect(f).toMatchObject({ eventId: newer.id, eventType: 'staff_registered' });
      expect(f.error).toContain('staff_registered v99 cannot be read');
    }
    expect(await context.pool.anyFirst(sql.unsafe`SELECT id::text FROM facilities`)).not.toContain(facilityId);
    expect(new Set((await checkpoints()).values()).size).toBe(1);
    const started = performance.now();
    expect(await waitForProjections(context.pool, newer.position, 2000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('the projector service with a failing projection', () => {
  const { context, addCustomer, addFacility } = useProjectorDatabase('failing_service');

  it('logs each attempt with the event id, retries on its own with growing delays, and recovers without a new event', async () => {
    const poison: Poison = new Set();
    const projections = readModelProjections.map((p) => (p === metricsProjection ? failingOn(poison, p, 'throws') : p));
    const logged: Array<{ message: string; error?: unknown }> = [];
    const config = readConfig({});
    const facilityId = await addFacility();
    const poisoned = await addCustomer(facilityId, 'Poison');
    poison.add(poisoned.id);
    const projector = await startProjector({
      pool: context.pool,
      store: context.store,
      connection: queueConnection({ redisUrl: undefined, databaseUrl: context.database.url }),
      payments: config,
      schedule: config,
      projections,
      retry: { firstDelayMs: 200, maxDelayMs: 800 },
      log: (message, error) => logged.push({ message, error }),
    });
    try {
      const attempts = () => logged.filter((line) => line.message.startsWith(`projection metrics failed on event ${poisoned.id}`));
      for (const deadline = Date.now() + 20_000; attempts().length < 4 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      expect(attempts().map((line) => line.message.match(/next attempt in ([\d.]+) s/)?.[1])).toEqual(['0.2', '0.4', '0.8', '0.8']);
      expect(attempts()[0]!.error).toBeInstanceOf(Error);

      poison.clear();
      const recovered = `projection metrics recovered: event ${poisoned.id} applied after`;
      for (const deadline = Date.now() + 5000; !logged.some((line) => line.message.startsWith(recovered)) && Date.now() < deadline; ) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(logged.some((line) => line.message.startsWith(recovered))).toBe(true);
      expect(await failedProjections(context.pool)).toEqual([]);
      expect(await context.pool.oneFirst(sql.unsafe`SELECT sum(customers_added)::int FROM metrics_daily`)).toBe(1);
    } finally {
      await projector.stop();
    }
  });
});
