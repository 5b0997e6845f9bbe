import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@storage/contracts/events';
import { createPostgresEventStore, type PostgresEventStore } from '@storage/eventstore/postgres';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { readModelProjections } from '@storage/projector/projections';
import { catchUp, ensureCheckpoints } from '@storage/projector/runner';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The notifications projection reads the alert toggles as they stood at each event, even when
// the toggle changes in the middle of one batch: the settings projection runs first, in the
// same transaction.

const allAlertsOn = { overduePaymentAlerts: true, lowBatteryAlerts: true, newCustomerAlerts: true };

describe('notification toggles in the projector', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let pool: DatabasePool;

  const append = async (stream: string, event: DomainEvent) => {
    const metadata = {
      actor: { type: 'system' as const },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
      occurredAt: new Date().toISOString(),
    };
    const existing = await store.readStream(stream);
    await store.append(stream, [{ id: randomUUID(), type: event.type, data: event.data, metadata }], {
      expectedRevision: existing.at(-1)?.revision ?? 'no_stream',
    });
  };
  const customerAdded = (lastName: string): DomainEvent => ({
    type: 'customer_added',
    data: {
      customerId: randomUUID(),
      firstName: 'Batch',
      lastName,
      email: `${lastName.toLowerCase()}@example.com`,
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      status: 'active',
      facilityId: null,
    },
  });
  const alerts = (changes: Partial<typeof allAlertsOn>): DomainEvent => ({
    type: 'notification_preferences_updated',
    data: { scope: 'business', ...allAlertsOn, ...changes },
  });

  beforeAll(async () => {
    database = await createTestDatabase('notification_toggles');
    store = await createPostgresEventStore({ connectionString: database.url });
    await store.migrate();
    await migrateReadModel(database.url);
    pool = await createDatabasePool(database.url);
    await ensureCheckpoints(pool, readModelProjections);
  });
  afterAll(async () => {
    await pool?.end();
    await store?.close();
    await database?.drop();
  });

  it('raises a new-customer notification only for the customers added while the toggle was on, within one batch', async () => {
    await append('customer-a', customerAdded('First'));
    await append('settings-business', alerts({ newCustomerAlerts: false }));
    await append('customer-b', customerAdded('Second'));
    await append('settings-business', alerts({ newCustomerAlerts: true }));
    await append('customer-c', customerAdded('Third'));

    // Events become readable once every older transaction on the server has ended (tests share it).
    let applied = 0;
    for (const deadline = Date.now() + 20_000; applied < 5 && Date.now() < deadline; ) {
      applied += await catchUp(pool, store, readModelProjections);
      if (applied < 5) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(applied).toBe(5);

    const messages = await pool.anyFirst(sql.type(z.object({ message: z.string() }))`
      SELECT message FROM notifications WHERE type = 'customer_added' ORDER BY message`);
    expect(messages).toEqual(['Batch First (first@example.com) was added', 'Batch Third (third@example.com) was added']);
    const settings = await pool.one(sql.type(z.object({ new_customer_alerts: z.boolean(), late_fee_amount: z.string() }))`
      SELECT new_customer_alerts, late_fee_amount FROM settings WHERE scope = 'business'`);
    expect(settings).toEqual({ new_customer_alerts: true, late_fee_amount: '25.00' });
  });
});
