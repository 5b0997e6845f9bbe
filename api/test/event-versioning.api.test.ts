import { randomUUID } from 'node:crypto';
import { streams, UnsupportedSchemaVersionError } from '@storage/contracts/events';
import { loadAggregate, toDomainEvent } from '@storage/domain/commands/handle';
import { leaseAggregate } from '@storage/domain/leases/lease';
import type { RecordedEvent } from '@storage/eventstore/port';
import type { ProjectedEvent } from '@storage/projector/projection';
import { catchUp, ensureCheckpoints } from '@storage/projector/runner';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { historyWriter } from './history.ts';

// lease_started v2 records the unit's facility; v1 events written before it stay readable.

describe('event schema versions', () => {
  let platform: TestPlatform;
  let history: ReturnType<typeof historyWriter>;
  let facilityId: string;
  let customerId: string;
  let oldUnitId: string;
  const oldLeaseId = randomUUID();
  const now = new Date();

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    history = historyWriter(platform);
    facilityId = await history.facility(now, 'Versioned Storage');
    oldUnitId = await history.unit(now, facilityId, 'VS-1', 'A');
    customerId = await history.customer(now, facilityId, { firstName: 'Ada', email: 'ada.versions@example.com' });
    // As a release before v2 wrote it: no facilityId, schemaVersion 1.
    const { position } = await platform.api.store.append(
      streams.lease(oldLeaseId),
      [
        {
          id: randomUUID(),
          type: 'lease_started',
          data: { leaseId: oldLeaseId, customerId, unitId: oldUnitId, startDate: '2024-05-01', monthlyRate: '95.00', depositAmount: null },
          metadata: { actor: { type: 'system' }, correlationId: randomUUID(), causationId: null, schemaVersion: 1, occurredAt: '2024-05-01T09:00:00.000Z' },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    expect(await platform.api.afterAppend(position, 30_000)).toBe(true);
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('writes lease_started as v2 with the facility of the unit', async () => {
    const unitId = await history.unit(now, facilityId, 'VS-2', 'A');
    const leaseId = await history.lease(now, customerId, unitId, '120.00');
    const [recorded] = await platform.api.store.readStream(streams.lease(leaseId));
    expect(recorded!.metadata.schemaVersion).toBe(2);
    expect(recorded!.data).toMatchObject({ leaseId, unitId, facilityId });
  });

  it('reads a stored v1 event in the current shape on the write side', async () => {
    const [recorded] = await platform.api.store.readStream(streams.lease(oldLeaseId));
    expect(recorded!.metadata.schemaVersion).toBe(1);
    expect(toDomainEvent(recorded!)).toEqual({
      type: 'lease_started',
      data: { leaseId: oldLeaseId, customerId, unitId: oldUnitId, facilityId: null, startDate: '2024-05-01', monthlyRate: '95.00', depositAmount: null },
    });
    const { state } = await loadAggregate(platform.api.store, streams.lease(oldLeaseId), leaseAggregate);
    expect(state).toMatchObject({ status: 'active', terms: { facilityId: null, monthlyRate: '95.00' } });
  });

  it('projects a stored v1 event in the current shape', async () => {
    const seen: ProjectedEvent[] = [];
    const probe = { name: 'versioning-probe', tables: [], apply: async (_tx: unknown, event: ProjectedEvent) => void seen.push(event) };
    await ensureCheckpoints(platform.api.pool, [probe]);
    try {
      await catchUp(platform.api.pool, platform.api.store, [probe]);
    } finally {
      // Left behind, the probe's checkpoint (which nothing moves on) would hold every later
      // read-your-writes wait of this file to its full timeout.
      await platform.api.pool.query(sql.unsafe`DELETE FROM projection_checkpoints WHERE name = ${probe.name}`);
    }
    const old = seen.find((e) => e.type === 'lease_started' && e.data.leaseId === oldLeaseId);
    expect(old?.data).toEqual({
      leaseId: oldLeaseId,
      customerId,
      unitId: oldUnitId,
      facilityId: null,
      startDate: '2024-05-01',
      monthlyRate: '95.00',
      depositAmount: null,
    });
    // The read model took it in too.
    const row = await platform.api.pool.maybeOne(
      sql.type(z.object({ monthly_rate: z.string() }))`SELECT monthly_rate::text FROM leases WHERE id = ${oldLeaseId}`,
    );
    expect(row?.monthly_rate).toBe('95.00');
  });

  it('shows a stored v1 event in the current shape in the audit log', async () => {
    const cookie = await platform.signIn();
    const response = await platform.api.app.inject({ method: 'GET', url: `/api/audit/events?stream=${streams.lease(oldLeaseId)}`, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.json()[0].data).toMatchObject({ leaseId: oldLeaseId, facilityId: null });
  });

  it('refuses an event of a version newer than this release knows, naming it', async () => {
    const [recorded] = await platform.api.store.readStream(streams.lease(oldLeaseId));
    const fromTheFuture: RecordedEvent = { ...recorded!, metadata: { ...recorded!.metadata, schemaVersion: 3 } };
    expect(() => toDomainEvent(fromTheFuture)).toThrow(UnsupportedSchemaVersionError);
    expect(() => toDomainEvent(fromTheFuture)).toThrow('lease_started v3 cannot be read');
  });
});
