import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@storage/contracts/events';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import type { Position } from '@storage/eventstore/port';
import { createPostgresEventStore, type PostgresEventStore } from '@storage/eventstore/postgres';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { readModelProjections } from '@storage/projector/projections';
import { metricsProjection } from '@storage/projector/projections/metrics';
import { catchUpTo, ensureCheckpoints } from '@storage/projector/runner';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { createDemoReadModel, type DemoReadModel } from '@storage/testing/demo-read-model';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The metrics projection turns events into each facility's daily figures and net changes. Given
// a short history, the rows it writes are known exactly; and rebuilt from the first event, it
// writes the same rows again.

const DAY = 86_400_000;
const start = Date.parse('2025-03-30T10:00:00Z');
const on = (days: number) => new Date(start + days * DAY).toISOString();

const DailyRow = z.object({
  facility_id: z.string().nullable(),
  day: z.string(),
  customers_added: z.number(),
  move_ins: z.number(),
  move_outs: z.number(),
  units_filled: z.number(),
  vacant_seconds_filled: z.number(),
  units_change: z.number(),
  occupied_units_change: z.number(),
});

describe('metrics projection', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let pool: DatabasePool;
  let last: Position | null = null;
  const north = randomUUID();
  const south = randomUUID();

  const append = async (occurredAt: string, stream: string, event: DomainEvent) => {
    const metadata = { actor: { type: 'system' as const }, correlationId: randomUUID(), causationId: null, schemaVersion: 1, occurredAt };
    const existing = await store.readStream(stream);
    const result = await store.append(stream, [{ id: randomUUID(), type: event.type, data: event.data, metadata }], {
      expectedRevision: existing.at(-1)?.revision ?? 'no_stream',
    });
    last = result.position;
  };
  /** Catches up to the last append (one catch-up may stop short of it while another file's transaction is open). */
  const project = async () => {
    if (last) await catchUpTo(pool, store, readModelProjections, last);
  };
  const daily = () =>
    pool.any(sql.type(DailyRow)`
      SELECT facility_id::text, day::text, customers_added, move_ins, move_outs, units_filled,
             vacant_seconds_filled, units_change, occupied_units_change
      FROM metrics_daily ORDER BY facility_id, day`);
  const BuildingRow = z.object({
    facility_id: z.string().nullable(),
    building: z.string(),
    day: z.string(),
    units_change: z.number(),
    occupied_units_change: z.number(),
  });
  const buildingDaily = () =>
    pool.any(sql.type(BuildingRow)`
      SELECT facility_id::text, building, day::text, units_change, occupied_units_change
      FROM metrics_building_daily ORDER BY facility_id, building, day`);
  const dayOf = (days: number) => on(days).slice(0, 10);
  const row = (facilityId: string, days: number, figures: Partial<z.infer<typeof DailyRow>>) => ({
    facility_id: facilityId,
    day: dayOf(days),
    customers_added: 0,
    move_ins: 0,
    move_outs: 0,
    units_filled: 0,
    vacant_seconds_filled: 0,
    units_change: 0,
    occupied_units_change: 0,
    ...figures,
  });

  beforeAll(async () => {
    database = await createTestDatabase('metrics_projection');
    store = await createPostgresEventStore({ connectionString: database.url });
    await store.migrate();
    await migrateReadModel(database.url);
    pool = await createDatabasePool(database.url);
    await ensureCheckpoints(pool, readModelProjections);

    const unit = randomUUID();
    const ada = randomUUID();
    const bob = randomUUID();
    const rent = randomUUID();
    const fee = randomUUID();
    const customer = (customerId: string, firstName: string): DomainEvent => ({
      type: 'customer_added',
      data: {
        customerId,
        firstName,
        lastName: 'Tenant',
        email: `${firstName}@example.com`,
        phone: null,
        address: null,
        emergencyContact: null,
        emergencyPhone: null,
        status: 'active',
        facilityId: north,
      },
    });
    const unitStatus = (status: 'available' | 'maintenance' | 'occupied'): DomainEvent => ({
      type: 'unit_status_changed',
      data: { unitId: unit, status, reason: null, leaseId: null, reservationId: null },
    });
    const invoice = (invoiceId: string, customerId: string, amount: string): DomainEvent => ({
      type: 'invoice_generated',
      data: {
        invoiceId,
        invoiceNumber: `INV-${invoiceId.slice(0, 6)}`,
        customerId,
        leaseId: null,
        amount,
        dueDate: dayOf(10),
        status: 'draft',
        description: null,
        lines: [{ kind: 'adjustment', description: 'Charge', amount, periodStart: null, periodEnd: null }],
      },
    });

    // Day 0: a unit for rent and two customers. The unit stands for rent one day, is under
    // maintenance two, for rent one more, then leased: two days vacant.
    await append(on(0), `unit-${unit}`, {
      type: 'unit_added',
      data: {
        unitId: unit,
        facilityId: north,
        unitNumber: 'M-1',
        building: 'A',
        size: '10x10',
        monthlyRate: '120.00',
        status: 'available',
        description: null,
        features: NO_UNIT_FEATURES,
      },
    });
    await append(on(0), `customer-${ada}`, customer(ada, 'ada'));
    await append(on(0), `customer-${bob}`, customer(bob, 'bob'));
    await append(on(1), `unit-${unit}`, unitStatus('maintenance'));
    await append(on(3), `unit-${unit}`, unitStatus('available'));
    await append(on(4), `unit-${unit}`, unitStatus('occupied'));
    // Day 4: rent of 120.00 sent and paid the next day; a fee of 25.50 sent and left open.
    await append(on(4), `invoice-${rent}`, invoice(rent, ada, '120.00'));
    await append(on(4), `invoice-${rent}`, { type: 'invoice_sent', data: { invoiceId: rent, sentOn: on(4).slice(0, 10) } });
    await append(on(4), `invoice-${fee}`, invoice(fee, ada, '25.50'));
    await append(on(4), `invoice-${fee}`, { type: 'invoice_sent', data: { invoiceId: fee, sentOn: on(4).slice(0, 10) } });
    await append(on(5), `invoice-${rent}`, {
      type: 'payment_received',
      data: {
        paymentId: randomUUID(),
        invoiceId: rent,
        customerId: ada,
        amount: '120.00',
        method: 'card',
        paidDate: dayOf(5),
        stripePaymentIntentId: null,
        reference: null,
        receiptId: null,
        invoiceStatus: null,
        openBalance: null,
      },
    });
    // Day 6: Ada moves to the south facility, her open fee with her (an edit of before facilities stopped being edited); Bob is archived; the unit is vacated.
    await append(on(6), `customer-${ada}`, { type: 'customer_updated', data: { customerId: ada, changes: { facilityId: south } } });
    await append(on(6), `customer-${bob}`, { type: 'customer_archived', data: { customerId: bob } });
    await append(on(6), `unit-${unit}`, unitStatus('available'));
    await project();
  });
  afterAll(async () => {
    await pool?.end();
    await store?.close();
    await database?.drop();
  });

  it('writes each facility its daily figures and net changes', async () => {
    const rows = await daily();
    const expected = [
      row(north, 0, { units_change: 1, customers_added: 2 }),
      row(north, 4, { move_ins: 1, occupied_units_change: 1, units_filled: 1, vacant_seconds_filled: 2 * 86_400 }),
      row(north, 6, { move_outs: 1, occupied_units_change: -1 }),
    ].sort((a, b) => `${a.facility_id}${a.day}`.localeCompare(`${b.facility_id}${b.day}`));
    expect(rows).toEqual(expected);
  });

  it("writes the unit's building its daily changes of units and occupied units", async () => {
    expect(await buildingDaily()).toEqual([
      { facility_id: north, building: 'A', day: dayOf(0), units_change: 1, occupied_units_change: 0 },
      { facility_id: north, building: 'A', day: dayOf(4), units_change: 0, occupied_units_change: 1 },
      { facility_id: north, building: 'A', day: dayOf(6), units_change: 0, occupied_units_change: -1 },
    ]);
  });

  it('keeps the net changes summing to the figures of the read model', async () => {
    const Totals = z.object({ units: z.number(), occupied: z.number() });
    const fromChanges = await pool.one(sql.type(Totals)`
      SELECT sum(units_change)::int8 AS units, sum(occupied_units_change)::int8 AS occupied FROM metrics_daily`);
    const fromTables = await pool.one(sql.type(Totals)`
      SELECT (SELECT count(*) FROM units)::int8 AS units, (SELECT count(*) FROM units WHERE status = 'occupied')::int8 AS occupied`);
    expect(fromChanges).toEqual(fromTables);
  });

  it('writes the same rows again when rebuilt from the first event', async () => {
    const before = await daily();
    const buildingsBefore = await buildingDaily();
    await pool.query(
      sql.unsafe`TRUNCATE ${sql.join(
        metricsProjection.tables.map((t) => sql.identifier([t])),
        sql.fragment`, `,
      )}`,
    );
    await pool.query(sql.unsafe`UPDATE projection_checkpoints SET position_hi = NULL, position_lo = NULL WHERE name = ${metricsProjection.name}`);
    await project();
    expect(await daily()).toEqual(before);
    expect(await buildingDaily()).toEqual(buildingsBefore);
  });
});

describe('metrics projection over the demo history', () => {
  let demo: DemoReadModel;
  let store: PostgresEventStore;
  let pool: DatabasePool;

  beforeAll(async () => {
    demo = await createDemoReadModel('metrics_demo');
    ({ store, pool } = demo);
    const head = await store.newestPosition();
    if (head) await catchUpTo(pool, store, readModelProjections, head, 120_000);
  }, 180_000);
  afterAll(async () => {
    await demo?.close();
  });

  it("sums each facility's net changes to the figures its tables show today", async () => {
    const Figures = z.object({ facility_id: z.string().nullable(), units: z.number(), occupied: z.number() });
    const fromChanges = await pool.any(sql.type(Figures)`
      SELECT facility_id::text, sum(units_change)::int8 AS units, sum(occupied_units_change)::int8 AS occupied
      FROM metrics_daily GROUP BY facility_id ORDER BY facility_id`);
    const fromTables = await pool.any(sql.type(Figures)`
      SELECT f.id::text AS facility_id,
             (SELECT count(*) FROM units u WHERE u.facility_id = f.id)::int8 AS units,
             (SELECT count(*) FROM units u WHERE u.facility_id = f.id AND u.status = 'occupied')::int8 AS occupied
      FROM facilities f ORDER BY f.id`);
    expect(fromTables).toHaveLength(3);
    expect(fromChanges).toEqual(fromTables);
  });

  it("sums each building's net changes to the units and occupied units it has today", async () => {
    const Building = z.object({ facility_id: z.string().nullable(), building: z.string(), units: z.number(), occupied: z.number() });
    const fromChanges = await pool.any(sql.type(Building)`
      SELECT facility_id::text, building, sum(units_change)::int8 AS units, sum(occupied_units_change)::int8 AS occupied
      FROM metrics_building_daily GROUP BY facility_id, building ORDER BY facility_id, building`);
    const fromTables = await pool.any(sql.type(Building)`
      SELECT facility_id::text, building, count(*)::int8 AS units, count(*) FILTER (WHERE status = 'occupied')::int8 AS occupied
      FROM units GROUP BY facility_id, building ORDER BY facility_id, building`);
    expect(new Set(fromTables.map((b) => b.facility_id)).size).toBe(3);
    expect(fromTables.length).toBeGreaterThan(3);
    expect(fromChanges).toEqual(fromTables);
  });
});
