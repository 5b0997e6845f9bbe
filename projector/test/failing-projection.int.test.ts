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
import { activitiesProjection } from '@storage/projector/projections/activities';
import { customersProjection } from '@storage/projector/projections/customers';
import { metricsProjection } from '@storage/projector/projections/metrics';
import { projectionsToRebuild, rebuildReadModel } from '@storage/projector/rebuild';
import { catchUp, describePosition, ensureCheckpoints, projectionDependents, type RunnerOptions } from '@storage/projector/runner';
import { startProjector } from '@storage/projector/service';
import { verifyReadModel } from '@storage/projector/verify';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// A projection that fails on one event stops there, alone with the projections that read its
// tables (directly or through another); those it reads, and every other one, go on past the event
// in the same catch-up. It is recorded with the event, retried with a growing delay, and once the
// cause is gone it applies the event and what follows, exactly once, or is rebuilt alone. Meanwhile
// the others keep up and a command's read-your-writes wait does not wait for it.

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
  const addCustomer = async (facilityId: string, lastName: string) => {
    const customerId = randomUUID();
    const added = await append(`customer-${customerId}`, 'customer_added', {
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
    return { ...added, customerId };
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
  /** Waits until the store shows the event at `position` (and so every event before it) to a reader. */
  const untilReadable = async (position: Position) => {
    for (const deadline = Date.now() + 20_000; ; ) {
      const newest = await context.store.headPosition();
      if (newest && describePosition(newest) === describePosition(position)) return;
      if (Date.now() > deadline) throw new Error(`${describePosition(position)} did not become readable`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { context, append, addCustomer, addFacility, checkpoints, projectUntil, untilReadable };
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
    expect(performance.now() - started).toBeLessThan(1_500);
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

describe('a projection whose write fails on an event, read by others', () => {
  const { context, append, addCustomer, addFacility, checkpoints, projectUntil, untilReadable } = useProjectorDatabase('failing_lane');
  const poison: Poison = new Set();
  const projections = readModelProjections.map((p) => (p === customersProjection ? failingOn(poison, p, 'writes a bad row') : p));
  let clock = Date.now();
  const options: RunnerOptions = { now: () => new Date(clock) };
  /** The projections that read the customers' tables, directly or through another: held with it. */
  const held = projectionDependents(readModelProjections, ['customers']).map((p) => p.name);
  const unitId = randomUUID();
  let before: Position;
  let poisoned: { id: string; position: Position };
  let head: Position;

  beforeAll(async () => {
    await ensureCheckpoints(context.pool, projections);
    const facilityId = await addFacility();
    before = (await addCustomer(facilityId, 'One')).position;
    poisoned = await addCustomer(facilityId, 'Poison');
    poison.add(poisoned.id);
    await append(`unit-${unitId}`, 'unit_added', {
      unitId,
      facilityId,
      unitNumber: 'F-1',
      building: 'F',
      size: '5x5',
      monthlyRate: '50.00',
      status: 'available',
      description: null,
    });
    head = (await addCustomer(facilityId, 'Three')).position;
    await untilReadable(head);
  });

  it('holds the projections that read its tables at the event; those it reads and the unrelated ones pass it in the same catch-up', async () => {
    // Its readers, directly or through another; not units, facilities, locks, settings, staff, metrics…
    expect(held).toEqual(['leases', 'invoices', 'ledger', 'report-totals', 'autopay', 'access', 'delinquency', 'activities', 'notifications', 'audit-log']);
    await catchUp(context.pool, context.store, projections, options);
    const positions = await checkpoints();
    for (const p of projections) {
      expect(positions.get(p.name), p.name).toBe(describePosition(p.name === 'customers' || held.includes(p.name) ? before : head));
    }
    const failures = await failedProjections(context.pool);
    expect(failures).toEqual([expect.objectContaining({ projection: 'customers', eventId: poisoned.id, attempts: 1, holds: held })]);
    expect(failures[0]!.error).toMatch(/writing customers failed: .*null value in column "first_name"/);
    expect((await projectorLag(context.pool, context.store)).failingProjections).toEqual([
      expect.objectContaining({ projection: 'customers', eventId: poisoned.id, holds: held }),
    ]);
    // Nothing of the refused event or after it reached the customers' tables; the unit added after it reached the units' and the facility's.
    expect(await context.pool.anyFirst(sql.unsafe`SELECT last_name FROM customers ORDER BY last_name`)).toEqual(['One']);
    expect(await context.pool.anyFirst(sql.unsafe`SELECT id::text FROM units`)).toEqual([unitId]);
    expect(await context.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM metrics_units`)).toBe(1);
    expect(await waitForProjections(context.pool, head, 2000)).toBe(true);
  });

  it('lets it and the projections it held go on from the event once the write succeeds, and the read model equals a rebuild', async () => {
    poison.clear();
    clock += 1000;
    await projectUntil(projections, options, 'customers', head);
    expect(await failedProjections(context.pool)).toEqual([]);
    expect(new Set((await checkpoints()).values())).toEqual(new Set([describePosition(head)]));
    expect(await context.pool.anyFirst(sql.unsafe`SELECT last_name FROM customers ORDER BY last_name`)).toEqual(['One', 'Poison', 'Three']);
    // One activity per customer added and per unit: the held readers applied the event once, the others did not apply it again.
    expect(await context.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM activities WHERE type = 'customer_added'`)).toBe(3);
    expect(await context.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM metrics_units`)).toBe(1);
    expect((await verifyReadModel(context.pool, context.store)).differences).toEqual([]);
  });
});

describe('an activity feed that throws on an event', () => {
  const { context, append, addCustomer, addFacility, checkpoints, untilReadable } = useProjectorDatabase('failing_feed');
  const poison: Poison = new Set();
  const projections = readModelProjections.map((p) => (p === activitiesProjection ? failingOn(poison, p, 'throws') : p));
  const logged: string[] = [];
  let clock = Date.now();
  const options: RunnerOptions = { now: () => new Date(clock), log: (message) => logged.push(message) };
  let facilityId: string;
  let customerId: string;
  let before: Position;
  let poisoned: { id: string; position: Position };
  let head: Position;

  /** An invoice sent at once: the invoices, the ledger and the report totals take it, and the feed. */
  const generateInvoice = (amount: string) => {
    const invoiceId = randomUUID();
    return append(`invoice-${invoiceId}`, 'invoice_generated', {
      invoiceId,
      invoiceNumber: `INV-${invoiceId.slice(0, 8)}`,
      customerId,
      leaseId: null,
      amount,
      dueDate: '2026-03-01',
      status: 'sent',
      description: 'Admin fee',
      lines: [{ kind: 'admin_fee', description: 'Admin fee', amount, periodStart: null, periodEnd: null }],
    });
  };
  /** The tables' own relation ids: a table swapped in is another relation. */
  const relations = async () =>
    new Map(
      (
        await context.pool.any(
          sql.type(z.object({ name: z.string(), id: z.number() }))`
            SELECT relname::text AS name, oid::int AS id FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'`,
        )
      ).map((row) => [row.name, row.id]),
    );
  const ledgerCharges = () => context.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM ledger_entries WHERE kind = 'charge'`);

  beforeAll(async () => {
    await ensureCheckpoints(context.pool, projections);
    facilityId = await addFacility();
    const customer = await addCustomer(facilityId, 'Payer');
    customerId = customer.customerId;
    before = customer.position;
    poisoned = await generateInvoice('25.00');
    poison.add(poisoned.id);
    head = (await generateInvoice('10.00')).position;
    await untilReadable(head);
  });

  it('holds only the feed at the event: customers, invoices, the ledger and every other projection pass it in the same catch-up', async () => {
    await catchUp(context.pool, context.store, projections, options);
    const positions = await checkpoints();
    for (const p of projections) expect(positions.get(p.name), p.name).toBe(describePosition(p.name === 'activities' ? before : head));
    expect(await context.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM invoices`)).toBe(2);
    expect(await ledgerCharges()).toBe(2);
    // Nothing reads the feed's tables: it holds nothing.
    expect(await failedProjections(context.pool)).toEqual([
      expect.objectContaining({
        projection: 'activities',
        eventId: poisoned.id,
        eventType: 'invoice_generated',
        position: poisoned.position,
        error: 'activities bug: cannot take this event',
        attempts: 1,
        holds: [],
      }),
    ]);
    expect(logged.find((line) => line.includes(poisoned.id))).not.toContain('holding back');
    // The health answer names it too (the error's text is for the log and the owner's Read model card).
    expect((await projectorLag(context.pool, context.store)).failingProjections).toEqual([
      expect.objectContaining({
        projection: 'activities',
        eventId: poisoned.id,
        eventType: 'invoice_generated',
        position: describePosition(poisoned.position),
        holds: [],
      }),
    ]);
    // A money command's read-your-writes wait does not wait for the feed.
    const started = performance.now();
    expect(await waitForProjections(context.pool, head, 2000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('when retried and failing again, retries the feed from its checkpoint while the others apply what is new, in the same catch-up', async () => {
    clock = Date.parse((await failedProjections(context.pool))[0]!.nextAttemptAt);
    head = (await generateInvoice('5.00')).position;
    await untilReadable(head);
    await catchUp(context.pool, context.store, projections, options);
    const positions = await checkpoints();
    for (const p of projections) expect(positions.get(p.name), p.name).toBe(describePosition(p.name === 'activities' ? before : head));
    expect(await failedProjections(context.pool)).toEqual([
      expect.objectContaining({ projection: 'activities', eventId: poisoned.id, attempts: 2, holds: [] }),
    ]);
    // The others skipped what they had applied: each charge once.
    expect(await ledgerCharges()).toBe(3);
  });

  it('once the cause is gone, a rebuild of the feed alone swaps in its tables only, clears its failure, and the projector goes on', async () => {
    // A fixed release: the rebuild runs the read model's own feed (the runner here would still throw).
    const tablesBefore = await relations();
    const checkpointsBefore = await checkpoints();
    const build = await rebuildReadModel(context.pool, context.store, projectionsToRebuild('activities'));
    expect(build.tables).toEqual(activitiesProjection.tables);
    expect(build.projections.map((p) => p.name)).toEqual(['units', 'customers', 'invoices', 'locks', 'activities']);
    const tablesAfter = await relations();
    for (const [table, id] of tablesBefore) {
      if (activitiesProjection.tables.includes(table as never)) expect(tablesAfter.get(table), table).not.toBe(id);
      else expect(tablesAfter.get(table), table).toBe(id);
    }
    expect(await failedProjections(context.pool)).toEqual([]);
    const checkpointsAfter = await checkpoints();
    for (const p of projections)
      expect(checkpointsAfter.get(p.name), p.name).toBe(p.name === 'activities' ? describePosition(head) : checkpointsBefore.get(p.name));
    expect(await context.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM activities WHERE type = 'invoice_generated'`)).toBe(3);

    // The projector goes on from there (the poisoned event is behind the feed now).
    const latest = await addCustomer(facilityId, 'After');
    await untilReadable(latest.position);
    await catchUp(context.pool, context.store, projections, options);
    expect(new Set((await checkpoints()).values())).toEqual(new Set([describePosition(latest.position)]));
    expect(await context.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM activities WHERE type = 'customer_added'`)).toBe(2);
    expect(await failedProjections(context.pool)).toEqual([]);
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
    expect(failures.map((f) => f.projection).sort()).toEqual(['billing_runs', 'gateway_keys', 'merchandise', 'metrics', 'reservations', 'settings', 'staff']);
    for (const f of failures) {
      expect(f).toMatchObject({ eventId: newer.id, eventType: 'staff_registered' });
      expect(f.error).toContain('staff_registered v99 cannot be read');
    }
    expect(await context.pool.anyFirst(sql.unsafe`SELECT id::text FROM facilities`)).not.toContain(facilityId);
    expect(new Set((await checkpoints()).values()).size).toBe(1);
    const started = performance.now();
    expect(await waitForProjections(context.pool, newer.position, 2000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_500);
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
