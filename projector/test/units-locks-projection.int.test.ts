import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@storage/contracts/events';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { createPostgresEventStore, type PostgresEventStore } from '@storage/eventstore/postgres';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { gatewayKeysProjection } from '@storage/projector/projections/gateway-keys';
import { locksProjection } from '@storage/projector/projections/locks';
import { unitsProjection } from '@storage/projector/projections/units';
import { catchUpTo, ensureCheckpoints } from '@storage/projector/runner';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The units, locks and gateway key tables as the projector builds them from events (in the
// read model's order: a lock's unit is projected before the lock).
const projections = [unitsProjection, locksProjection, gatewayKeysProjection];

describe('units, locks and gateway keys projections', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let pool: DatabasePool;

  const facilityId = randomUUID();
  const unitId = randomUUID();
  const otherUnitId = randomUUID();
  const lockId = randomUUID();

  async function given(stream: string, ...events: DomainEvent[]) {
    const metadata = {
      actor: { type: 'system' as const },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
      occurredAt: new Date().toISOString(),
    };
    const { position } = await store.append(
      stream,
      events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata })),
      {
        expectedRevision: 'any',
      },
    );
    await catchUpTo(pool, store, projections, position);
  }
  const unitAdded = (id: string, unitNumber: string, building: string): DomainEvent => ({
    type: 'unit_added',
    data: {
      unitId: id,
      facilityId,
      unitNumber,
      building,
      size: '10x15',
      monthlyRate: '155.00',
      status: 'available',
      description: null,
      features: NO_UNIT_FEATURES,
    },
  });

  beforeAll(async () => {
    database = await createTestDatabase('projections_units_locks');
    await migrateReadModel(database.url);
    store = await createPostgresEventStore({ connectionString: database.url });
    await store.migrate();
    pool = await createDatabasePool(database.url);
    await ensureCheckpoints(pool, projections);
    await given(`facility-${facilityId}`, {
      type: 'facility_added',
      data: { facilityId, name: 'Projection Yard', address: '1 Way', phone: null, managerName: null, timeZone: 'UTC' },
    });
    await given(`unit-${unitId}`, unitAdded(unitId, 'PY-A101', 'A'));
    await given(`unit-${otherUnitId}`, unitAdded(otherUnitId, 'PY-B201', 'Drive-Up B'));
  });
  afterAll(async () => {
    await pool?.end();
    await store?.close();
    await database?.drop();
  });

  it('makes a unit searchable by number, building and size, and follows its status', async () => {
    const Row = z.object({ search_text: z.string(), status: z.string() });
    const unitRow = () => pool.one(sql.type(Row)`SELECT search_text, status FROM units WHERE id = ${otherUnitId}`);
    expect(await unitRow()).toEqual({ search_text: 'py-b201 drive-up b 10x15', status: 'available' });
    await given(`unit-${otherUnitId}`, {
      type: 'unit_status_changed',
      data: { unitId: otherUnitId, status: 'maintenance', reason: 'Door repair', leaseId: null, reservationId: null },
    });
    expect(await unitRow()).toEqual({ search_text: 'py-b201 drive-up b 10x15', status: 'maintenance' });
  });

  it('gives a lock its unit’s number and facility, and follows it to another unit and off it', async () => {
    const LockRow = z.object({ unit_number: z.string().nullable(), facility_id: z.string().nullable(), search_text: z.string() });
    const lockRow = () => pool.one(sql.type(LockRow)`SELECT unit_number, facility_id::text, search_text FROM locks WHERE id = ${lockId}`);

    await given(`lock-${lockId}`, {
      type: 'lock_installed',
      data: { lockId, serial: 'NK-7001', unitId, status: 'active', batteryLevel: 100, firmwareVersion: '2.4.0' },
    });
    expect(await lockRow()).toEqual({ unit_number: 'PY-A101', facility_id: facilityId, search_text: 'nk-7001 py-a101' });

    await given(`lock-${lockId}`, { type: 'lock_assigned', data: { lockId, unitId: otherUnitId } });
    expect(await lockRow()).toEqual({ unit_number: 'PY-B201', facility_id: facilityId, search_text: 'nk-7001 py-b201' });

    await given(`lock-${lockId}`, { type: 'lock_assigned', data: { lockId, unitId: null } });
    expect(await lockRow()).toEqual({ unit_number: null, facility_id: null, search_text: 'nk-7001 ' });
  });

  it('records a heartbeat’s battery, firmware and time, keeping the firmware a heartbeat does not report', async () => {
    const Row = z.object({ battery_level: z.number(), firmware_version: z.string().nullable(), last_seen: z.string().nullable() });
    await given(`lock-${lockId}`, { type: 'lock_heartbeat_received', data: { lockId, batteryLevel: 64, firmwareVersion: null } });
    const row = await pool.one(sql.type(Row)`SELECT battery_level, firmware_version, last_seen FROM locks WHERE id = ${lockId}`);
    expect(row).toMatchObject({ battery_level: 64, firmware_version: '2.4.0' });
    expect(row.last_seen).not.toBeNull();
  });

  it('keeps one gateway key per facility: a rotation replaces the hash', async () => {
    const Row = z.object({ key_hash: z.string(), key_prefix: z.string() });
    await given(`facility-${facilityId}`, { type: 'gateway_key_rotated', data: { facilityId, keyHash: 'hash-1', keyPrefix: 'sgk_aaaa' } });
    await given(`facility-${facilityId}`, { type: 'gateway_key_rotated', data: { facilityId, keyHash: 'hash-2', keyPrefix: 'sgk_bbbb' } });
    const rows = await pool.any(sql.type(Row)`SELECT key_hash, key_prefix FROM gateway_keys WHERE facility_id = ${facilityId}`);
    expect(rows).toEqual([{ key_hash: 'hash-2', key_prefix: 'sgk_bbbb' }]);
  });
});
