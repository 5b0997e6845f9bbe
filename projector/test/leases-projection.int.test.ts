import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@storage/contracts/events';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { createPostgresEventStore, type PostgresEventStore } from '@storage/eventstore/postgres';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { readModelProjections } from '@storage/projector/projections';
import { catchUpTo, ensureCheckpoints } from '@storage/projector/runner';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The leases table as the projector builds it from events.

describe('leases projection', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let pool: DatabasePool;

  const customerId = randomUUID();
  const otherCustomerId = randomUUID();
  const unitId = randomUUID();
  const leaseId = randomUUID();
  const otherLeaseId = randomUUID();

  async function given(stream: string, ...events: DomainEvent[]) {
    const metadata = {
      actor: { type: 'system' as const },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
      occurredAt: '2025-03-01T10:00:00.000Z',
    };
    const { position } = await store.append(
      stream,
      events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata })),
      {
        expectedRevision: 'any',
      },
    );
    await catchUpTo(pool, store, readModelProjections, position);
  }
  const customerAdded = (id: string, firstName: string, email: string): DomainEvent => ({
    type: 'customer_added',
    data: {
      customerId: id,
      firstName,
      lastName: 'Lovelace',
      email,
      phone: '555-0100',
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      status: 'active',
      facilityId: null,
    },
  });
  const leaseStarted = (id: string, customer: string): DomainEvent => ({
    type: 'lease_started',
    data: { leaseId: id, customerId: customer, unitId, facilityId: null, startDate: '2025-03-01', monthlyRate: '120.00', depositAmount: null },
  });

  const LeaseRow = z.object({ search_text: z.string(), is_active: z.boolean(), end_date: z.string().nullable(), monthly_rate: z.string() });
  const leaseRow = (id: string) => pool.one(sql.type(LeaseRow)`SELECT search_text, is_active, end_date, monthly_rate FROM leases WHERE id = ${id}`);

  beforeAll(async () => {
    database = await createTestDatabase('projections_leases');
    await migrateReadModel(database.url);
    store = await createPostgresEventStore({ connectionString: database.url });
    await store.migrate();
    pool = await createDatabasePool(database.url);
    await ensureCheckpoints(pool, readModelProjections);
    await given(`customer-${customerId}`, customerAdded(customerId, 'Ada', 'ada@example.com'));
    await given(`customer-${otherCustomerId}`, customerAdded(otherCustomerId, 'Byron', 'byron@example.com'));
    await given(`unit-${unitId}`, {
      type: 'unit_added',
      data: {
        unitId,
        facilityId: null,
        unitNumber: 'PY-A101',
        building: 'A',
        size: '10x10',
        monthlyRate: '120.00',
        status: 'available',
        description: null,
        features: NO_UNIT_FEATURES,
      },
    });
    await given(`lease-${leaseId}`, leaseStarted(leaseId, customerId));
    await given(`lease-${otherLeaseId}`, leaseStarted(otherLeaseId, otherCustomerId));
  });
  afterAll(async () => {
    await pool?.end();
    await store?.close();
    await database?.drop();
  });

  it("makes a lease searchable by its tenant's name and email and its unit number, not the phone", async () => {
    expect(await leaseRow(leaseId)).toEqual({ search_text: 'ada lovelace ada@example.com py-a101', is_active: true, end_date: null, monthly_rate: '120.00' });
  });

  it("follows a change of the tenant's name or email, and only that tenant's leases", async () => {
    await given(`customer-${customerId}`, { type: 'customer_updated', data: { customerId, changes: { lastName: 'King', email: 'ada.king@example.com' } } });
    expect((await leaseRow(leaseId)).search_text).toBe('ada king ada.king@example.com py-a101');
    expect((await leaseRow(otherLeaseId)).search_text).toBe('byron lovelace byron@example.com py-a101');
  });

  it('marks an ended lease inactive with its end date', async () => {
    await given(`lease-${leaseId}`, { type: 'lease_ended', data: { leaseId, customerId, unitId, endDate: '2025-06-30' } });
    expect(await leaseRow(leaseId)).toMatchObject({ is_active: false, end_date: '2025-06-30' });
    expect((await leaseRow(otherLeaseId)).is_active).toBe(true);
  });
});
