// The audit log from an event to its request and to its entity: each event names the request (or
// process run) that appended it and the event that caused it, the log lists one request's events
// by that id, and it lists a picked customer's, unit's or invoice's events; an install upgraded
// with rows already logged gets the ids from the event store, and the facility of each event its
// entity had then (a renter's account, a lease's gate code, a lock's heartbeats…).

import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { streams } from '@storage/contracts/events';
import type { AuditEvent } from '@storage/contracts/history';
import type { Position, RecordedEvent } from '@storage/eventstore/port';
import { createPostgresEventStore } from '@storage/eventstore/postgres';
import { migrateReadModel } from '@storage/platform/migrate';
import { createTestDatabase } from '@storage/testing/database';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyWriter } from './history.ts';

const migrationsDir = fileURLToPath(new URL('../../platform/migrations/', import.meta.url));

/** The read model as the release before migration `next` left it: every migration before it applied. */
async function migratedBefore(client: pg.Client, next: string): Promise<void> {
  await client.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  for (const file of (await readdir(migrationsDir)).filter((f) => /^\d+_.+\.sql$/.test(f) && f < next).sort()) {
    await client.query(await readFile(`${migrationsDir}${file}`, 'utf8'));
    await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
  }
}

describe('the audit log, from an event to its request and its entity', () => {
  let platform: TestPlatform;
  let owner: string;
  let auditor: string;
  /** The request that added a customer: its X-Request-Id and the customer. */
  const added = { requestId: '', customerId: '' };
  const history = { customerId: '', otherCustomerId: '', unitId: '', leaseId: '', invoiceId: '', otherInvoiceId: '' };

  const get = (url: string, cookie = auditor) => platform.api.app.inject({ method: 'GET', url, headers: { cookie } });
  const listed = async (query: string): Promise<AuditEvent[]> => {
    const response = await get(`/api/audit/events?pageSize=200&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  /** Every event of the store, in the log's order. */
  async function log(): Promise<RecordedEvent[]> {
    const all: RecordedEvent[] = [];
    for (let after: Position | null = null; ; ) {
      const batch = await platform.api.store.readAll({ after, limit: 5000 });
      all.push(...batch);
      if (batch.length < 5000) return all;
      after = batch.at(-1)!.position;
    }
  }
  /** The ids of the events of these streams, newest first as the log lists them (by when they occurred, then the log's order). */
  const newestFirst = (events: RecordedEvent[]) =>
    events
      .map((event, seq) => ({ event, seq }))
      .sort((a, b) => b.event.metadata.occurredAt.localeCompare(a.event.metadata.occurredAt) || b.seq - a.seq)
      .map(({ event }) => event.id);

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    owner = await platform.signIn('owner');
    auditor = await platform.signIn('auditor');
    const response = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      headers: { cookie: owner },
      payload: { firstName: 'Rhea', lastName: 'Request', email: `rhea-${Date.now()}@example.com`, phone: '555-010-4242', status: 'active' },
    });
    expect(response.statusCode).toBe(201);
    Object.assign(added, { requestId: response.headers['x-request-id'], customerId: response.json().id });

    const writer = historyWriter(platform);
    const facilityId = await writer.facility(new Date('2024-01-01T09:00:00.000Z'), 'Entity Storage');
    history.unitId = await writer.unit(new Date('2024-01-02T09:00:00.000Z'), facilityId, '101', 'A');
    const otherUnitId = await writer.unit(new Date('2024-01-02T09:00:00.000Z'), facilityId, '102', 'A');
    history.customerId = await writer.customer(new Date('2024-01-03T09:00:00.000Z'), facilityId, {
      firstName: 'Enid',
      email: `enid-${Date.now()}@example.com`,
    });
    history.otherCustomerId = await writer.customer(new Date('2024-01-03T09:00:00.000Z'), facilityId, {
      firstName: 'Otto',
      email: `otto-${Date.now()}@example.com`,
    });
    history.leaseId = await writer.lease(new Date('2024-01-04T09:00:00.000Z'), history.customerId, history.unitId, '100.00');
    await writer.lease(new Date('2024-01-04T09:00:00.000Z'), history.otherCustomerId, otherUnitId, '90.00');
    history.invoiceId = await writer.sentInvoice(new Date('2024-01-05T09:00:00.000Z'), history.customerId, '100.00');
    await writer.pay(new Date('2024-01-06T09:00:00.000Z'), history.invoiceId, '100.00');
    history.otherInvoiceId = await writer.sentInvoice(new Date('2024-01-05T09:00:00.000Z'), history.otherCustomerId, '90.00');
    await writer.settle();
    expect(await platform.reactionsCaughtUp(30_000)).toBe(true);
  });

  afterAll(async () => {
    await platform?.close();
  });

  it("names each event's request (the X-Request-Id of the request that appended it), its cause, its place in its stream and in the log", async () => {
    const stream = streams.customer(added.customerId);
    const [customerAdded] = await platform.api.store.readStream(stream);
    // A later step that names the request's event as its cause, as a process's does.
    const followUp = { id: randomUUID(), correlationId: randomUUID() };
    await platform.api.store.append(
      stream,
      [
        {
          id: followUp.id,
          type: 'customer_standing_changed',
          data: { customerId: added.customerId, status: 'inactive', reason: 'Follow-up of the request' },
          metadata: {
            actor: { type: 'system' },
            correlationId: followUp.correlationId,
            causationId: customerAdded!.id,
            schemaVersion: 1,
            occurredAt: new Date().toISOString(),
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    expect(await platform.readModelCaughtUp(30_000)).toBe(true);

    const events = await listed(`customerId=${added.customerId}`);
    const [recorded] = await platform.api.store.readStream(stream, { fromRevision: 1n });
    expect(events.map(({ type, correlationId, causationId, streamRevision }) => ({ type, correlationId, causationId, streamRevision }))).toEqual([
      { type: 'customer_standing_changed', correlationId: followUp.correlationId, causationId: customerAdded!.id, streamRevision: 1 },
      { type: 'customer_added', correlationId: added.requestId, causationId: null, streamRevision: 0 },
    ]);
    expect(events[0]!.position).toBe(((recorded!.position.hi << 64n) + recorded!.position.lo).toString());
    expect(events[0]!.entity).toBe('Customer Rhea Request');
  });

  it("lists one request's events by its correlation id, and exports them so", async () => {
    const ofTheRequest = (await log()).filter((e) => e.metadata.correlationId === added.requestId);
    // The customer and the claim of their email, appended by the one request.
    expect(ofTheRequest.map((e) => e.type).sort()).toEqual(['customer_added', 'unique_key_claimed']);
    const events = await listed(`correlationId=${added.requestId}`);
    expect(events.map((e) => e.id)).toEqual(newestFirst(ofTheRequest));
    expect(events.map((e) => e.entity).sort()).toEqual([
      'Customer Rhea Request',
      expect.stringMatching(/^Customer email reservation · rhea-\d+@example\.com$/),
    ]);

    const csv = await get(`/api/audit/events.csv?correlationId=${added.requestId}`);
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body.trim().split('\r\n');
    expect(header).toContain('Event ID,Correlation ID,Causation ID');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toContain(`,${added.requestId},`);

    expect(await listed(`correlationId=${randomUUID()}`)).toEqual([]);
  });

  it('refuses a correlation id or an entity that is not an id with a 400 naming the field, on the list and the export', async () => {
    for (const path of ['/api/audit/events', '/api/audit/events.csv']) {
      for (const field of ['correlationId', 'customerId', 'unitId', 'invoiceId']) {
        const refused = await get(`${path}?${field}=not-a-uuid`);
        expect(refused.statusCode, `${path} ${field}`).toBe(400);
        expect(refused.json().message, `${path} ${field}`).toContain(field);
      }
    }
  });

  it("lists a customer's events with those of their leases, reservations and invoices; a unit's; an invoice's", async () => {
    const all = await log();
    const of = (...names: string[]) => newestFirst(all.filter((e) => names.includes(e.streamName)));
    const { customerId, leaseId, invoiceId, unitId } = history;
    const customers = of(
      streams.customer(customerId),
      streams.account(customerId),
      streams.delinquency(customerId),
      streams.paymentProfile(customerId),
      streams.lease(leaseId),
      streams.gateCode(leaseId),
      streams.invoice(invoiceId),
      streams.autopayCharges(invoiceId),
    );
    const byCustomer = await listed(`customerId=${customerId}`);
    expect(byCustomer.map((e) => e.id)).toEqual(customers);
    expect(byCustomer.map((e) => e.entity)).toEqual(
      expect.arrayContaining(['Customer Enid Tenant', 'Account · Enid Tenant', 'Lease · Unit 101, Enid Tenant', `Invoice INV-${invoiceId.slice(0, 8)}`]),
    );
    // Nothing of the other renter's, though they share the facility and the days.
    expect(byCustomer.filter((e) => JSON.stringify(e).includes(history.otherCustomerId) || e.entity.includes('Otto'))).toEqual([]);

    expect((await listed(`unitId=${unitId}`)).map((e) => e.id)).toEqual(of(streams.unit(unitId)));
    expect((await listed(`invoiceId=${invoiceId}`)).map((e) => e.id)).toEqual(of(streams.invoice(invoiceId), streams.autopayCharges(invoiceId)));
    // With the other filters, and with another entity: only what both hold.
    expect((await listed(`customerId=${customerId}&type=payment_received`)).map((e) => e.type)).toEqual(['payment_received']);
    expect(await listed(`customerId=${customerId}&invoiceId=${history.otherInvoiceId}`)).toEqual([]);
    expect((await listed(`customerId=${customerId}&invoiceId=${invoiceId}`)).map((e) => e.id)).toEqual(of(streams.invoice(invoiceId)));

    const csv = await get(`/api/audit/events.csv?customerId=${customerId}`);
    expect(csv.body.trim().split('\r\n')).toHaveLength(customers.length + 1);
  });
});

describe('an install upgraded with events already logged', () => {
  it('gets their correlation and causation ids and revisions from the event store', async () => {
    const database = await createTestDatabase('audit_ids_upgrade');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const store = await createPostgresEventStore({ connectionString: database.url });
    try {
      await store.migrate();
      await migratedBefore(client, '057');
      const customerId = randomUUID();
      const ids = { correlation: randomUUID(), first: randomUUID(), second: randomUUID() };
      const metadata = (causationId: string | null) => ({
        actor: { type: 'system' as const },
        correlationId: ids.correlation,
        causationId,
        schemaVersion: 1,
        occurredAt: '2025-05-01T10:00:00.000Z',
      });
      await store.append(
        streams.customer(customerId),
        [
          { id: ids.first, type: 'customer_note_added', data: { customerId, noteId: randomUUID(), text: 'One' }, metadata: metadata(null) },
          { id: ids.second, type: 'customer_note_added', data: { customerId, noteId: randomUUID(), text: 'Two' }, metadata: metadata(ids.first) },
        ],
        { expectedRevision: 'any' },
      );
      // Logged as the audit-log projection of the release before wrote its rows.
      await client.query(
        `INSERT INTO audit_log (position, event_id, type, stream_name, actor_type, occurred_at, recorded_at, schema_version, data)
         SELECT global_position, id, type, stream_name, 'system', metadata->>'occurredAt', recorded_at::text, 1, data FROM event_store.events`,
      );

      expect(await migrateReadModel(database.url)).toContain('057_audit_log_correlation.sql');
      const { rows } = await client.query('SELECT event_id::text, correlation_id, causation_id, stream_revision::int FROM audit_log ORDER BY stream_revision');
      expect(rows).toEqual([
        { event_id: ids.first, correlation_id: ids.correlation, causation_id: null, stream_revision: 0 },
        { event_id: ids.second, correlation_id: ids.correlation, causation_id: ids.first, stream_revision: 1 },
      ]);
    } finally {
      await store.close();
      await client.end();
      await database.drop();
    }
  });

  it("files the events of an entity's other streams under the facility it had then, and those a facility names under it", async () => {
    const database = await createTestDatabase('audit_facilities_upgrade');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await migratedBefore(client, '066');
      const [lockId, spareLockId, customerId, leaseId, invoiceId, first, second] = [
        randomUUID(),
        randomUUID(),
        randomUUID(),
        randomUUID(),
        randomUUID(),
        randomUUID(),
        randomUUID(),
      ];
      // Positions in the log's order. The lock is installed unassigned, put on a unit of the first
      // facility, taken off, put on one of the second, and reports between each; the spare never
      // leaves the shelf. The renter, their lease and invoice are of the first facility.
      const logged: Array<[number, string, string, string | null]> = [
        [10, 'lock_installed', streams.lock(lockId), null],
        [15, 'lock_heartbeat_received', streams.lockHeartbeats(lockId), null],
        [20, 'lock_assigned', streams.lock(lockId), first],
        [25, 'lock_heartbeat_received', streams.lockHeartbeats(lockId), null],
        [26, 'lock_heartbeat_received', streams.lockHeartbeats(spareLockId), null],
        [30, 'lock_assigned', streams.lock(lockId), null],
        [35, 'lock_heartbeat_received', streams.lockHeartbeats(lockId), null],
        [40, 'lock_assigned', streams.lock(lockId), second],
        [45, 'lock_heartbeat_received', streams.lockHeartbeats(lockId), null],
        [50, 'lock_status_changed', streams.lock(spareLockId), null],
        [60, 'customer_added', streams.customer(customerId), first],
        [61, 'account_credit_given', streams.account(customerId), null],
        [62, 'delinquency_step_taken', streams.delinquency(customerId), null],
        [63, 'card_saved', streams.paymentProfile(customerId), null],
        [64, 'lease_started', streams.lease(leaseId), first],
        [65, 'gate_code_assigned', streams.gateCode(leaseId), null],
        [66, 'invoice_generated', streams.invoice(invoiceId), first],
        [67, 'autopay_charge_attempted', streams.autopayCharges(invoiceId), null],
        [70, 'billing_day_started', streams.billingDay(second, '2025-05-01'), null],
        [71, 'billing_day_started', streams.billingDay(null, '2025-05-01'), null],
        [72, 'access_attempts_reported', streams.accessLog(second, '2025-05-01'), null],
        [73, 'notifications_marked_read', streams.notificationMarks(second), null],
        [74, 'notifications_marked_read', streams.notificationMarks(null), null],
        [75, 'billing_settings_updated', streams.settings(second), null],
        [76, 'billing_settings_updated', streams.settings('business'), null],
        [77, 'staff_registered', streams.staff(randomUUID()), null],
      ];
      for (const [position, type, stream, facility] of logged) {
        await client.query(
          `INSERT INTO audit_log (position, event_id, type, stream_name, facility_id, actor_type, occurred_at, recorded_at, schema_version, data)
           VALUES ($1, $2, $3, $4, $5, 'system', '2025-05-01T10:00:00.000Z', '2025-05-01T10:00:00.000Z', 1, '{}')`,
          [position, randomUUID(), type, stream, facility],
        );
      }

      expect(await migrateReadModel(database.url)).toContain('066_audit_log_facilities.sql');
      const { rows } = await client.query('SELECT position::int, facility_id::text FROM audit_log ORDER BY position');
      expect(rows.map((r) => [r.position, r.facility_id])).toEqual([
        [10, null],
        [15, null],
        [20, first],
        [25, first],
        [26, null],
        [30, null],
        [35, null],
        [40, second],
        [45, second],
        [50, null],
        [60, first],
        [61, first],
        [62, first],
        [63, first],
        [64, first],
        [65, first],
        [66, first],
        [67, first],
        [70, second],
        [71, null],
        [72, second],
        [73, second],
        [74, null],
        [75, second],
        [76, null],
        [77, null],
      ]);
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
