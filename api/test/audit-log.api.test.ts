// The auditors' event log has two readers: SQL on the Postgres store's table (used there), and a
// scan of the log through the event store port (used on any other store, e.g. EventStoreDB).
// Here the port reader runs against the real Postgres store, and must answer exactly as SQL does.

import { randomUUID } from 'node:crypto';
import { type AuditSource, auditEventsMatching, auditSourceOf, listAuditEvents } from '@storage/api/history/queries';
import type { AuditEvent, AuditEventsFilter } from '@storage/contracts/history';
import type { EventStore, NewEvent } from '@storage/eventstore/port';
import { appendWithinTransaction } from '@storage/eventstore/postgres';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import pg from 'pg';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { historyWriter } from './history.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Filter = AuditEventsFilter;
type Paging = { page: number; pageSize: number };

describe('the event log read through the event store port', () => {
  let platform: TestPlatform;
  let deps: { store: EventStore; pool: TestPlatform['api']['pool'] };
  let demoFacilityId: string;
  let newFacilityId: string;
  let backdatedCustomerId: string;
  let renterFirstName: string;
  /** Two events that occurred at the same instant: `committedFirst` has the larger global_position, the smaller transaction id. */
  const tie = { instant: '2019-06-01T12:00:00.000Z', committedFirst: '', committedLast: '' };
  const filters: Filter[] = [];

  const eventCount = () => platform.api.pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int8 AS n FROM event_store.events`);

  /**
   * The log reader sees only what readAll may pass (below the oldest transaction open anywhere on
   * the shared server), the SQL reader every committed event: wait until the two coincide.
   */
  async function logCaughtUp(): Promise<number> {
    const Newest = z.object({ hi: z.string(), lo: z.string() });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const newest = await platform.api.pool.maybeOne(sql.type(Newest)`
        SELECT transaction_id::text AS hi, global_position::text AS lo FROM event_store.events
        ORDER BY transaction_id DESC, global_position DESC LIMIT 1`);
      const head = await deps.store.headPosition();
      if (newest && head && String(head.hi) === newest.hi && String(head.lo) === newest.lo) return eventCount();
      if (Date.now() > deadline) throw new Error('the log never showed its newest event');
      await pause(50);
    }
  }

  /** Both readers over the same log: the scheduled jobs of the projector may append meanwhile, then read again. */
  async function bothWays<T>(read: (source: AuditSource) => Promise<T>): Promise<{ sql: T; log: T }> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = await logCaughtUp();
      const bySql = await read('sql');
      const byLog = await read('log');
      if ((await eventCount()) === before) return { sql: bySql, log: byLog };
    }
    throw new Error('the log kept growing while it was read');
  }

  async function exported(filter: Filter, source: AuditSource): Promise<AuditEvent[]> {
    const batches: AuditEvent[][] = [];
    for await (const batch of auditEventsMatching(deps, filter as never, source)) batches.push(batch);
    return batches.flat();
  }

  beforeAll(async () => {
    platform = await startTestPlatform({ seedDemo: true });
    deps = { store: platform.api.store, pool: platform.api.pool };
    const cookie = await platform.signIn();
    const IdRow = z.object({ id: z.string() });
    demoFacilityId = await platform.api.pool.oneFirst(sql.type(IdRow)`SELECT id::text AS id FROM facilities ORDER BY name LIMIT 1`);
    renterFirstName = await platform.api.pool.oneFirst(sql.type(z.object({ name: z.string() }))`
      SELECT first_name AS name FROM customers WHERE facility_id = ${demoFacilityId} ORDER BY id LIMIT 1`);

    // Staff-made events, now.
    const inject = (method: 'POST' | 'PATCH', url: string, payload: object) => platform.api.app.inject({ method, url, headers: { cookie }, payload });
    const added = await inject('POST', '/api/customers', {
      firstName: 'Audra',
      lastName: 'Logreader',
      email: `audra-${Date.now()}@example.com`,
      phone: '555-010-7777',
      status: 'active',
      facilityId: demoFacilityId,
    });
    expect(added.statusCode).toBe(201);
    expect((await inject('PATCH', `/api/customers/${added.json().id}`, { lastName: 'Log-Reader' })).statusCode).toBe(200);

    // Written last but backdated before the whole demo history, and pairs of appends that occurred
    // in the same millisecond (an invoice generated and sent at once).
    const writer = historyWriter(platform);
    newFacilityId = await writer.facility(new Date('2020-03-01T09:00:00.000Z'), 'Backdated Storage');
    const unitId = await writer.unit(new Date('2020-03-02T09:00:00.000Z'), newFacilityId, '101', 'A');
    backdatedCustomerId = await writer.customer(new Date('2020-03-03T09:00:00.000Z'), newFacilityId, {
      firstName: 'Early',
      email: `early-${Date.now()}@example.com`,
    });
    await writer.lease(new Date('2020-03-03T09:00:00.000Z'), backdatedCustomerId, unitId, '100.00');
    const invoiceId = await writer.sentInvoice(new Date('2020-03-04T09:00:00.000Z'), backdatedCustomerId, '100.00');
    await writer.pay(new Date('2020-03-05T23:59:59.999Z'), invoiceId, '100.00');
    await writer.sentInvoice(new Date('2020-03-06T00:00:00.000Z'), backdatedCustomerId, '40.00');
    await writer.settle();

    // Two appends committed concurrently, whose order in the log (transaction id) is not the order
    // of their global positions: a transaction that began first appends after one that began later.
    const tieEvent = (): NewEvent => ({
      id: randomUUID(),
      // A type this version does not know (as a newer version's event would be): shown as stored.
      type: 'audit_tie_recorded',
      data: { note: 'same instant' },
      metadata: { actor: { type: 'system' }, correlationId: randomUUID(), causationId: null, schemaVersion: 1, occurredAt: tie.instant },
    });
    const early = new pg.Client({ connectionString: platform.database.url });
    await early.connect();
    try {
      await early.query('BEGIN');
      await early.query('SELECT pg_current_xact_id()');
      const last = tieEvent();
      await platform.api.store.append(`audit_tie-${randomUUID()}`, [last], { expectedRevision: 'no_stream' });
      const first = tieEvent();
      await appendWithinTransaction(early, `audit_tie-${randomUUID()}`, [first], 'no_stream');
      await early.query('COMMIT');
      Object.assign(tie, { committedFirst: first.id, committedLast: last.id });
    } finally {
      await early.end();
    }

    filters.push(
      {},
      { type: 'customer_added' },
      { type: 'payment_received' },
      { type: 'invoice_sent' },
      { actor: 'system' },
      { actor: 'SYS' },
      { actor: 'test owner' },
      { actor: 'renter' },
      { actor: renterFirstName },
      { actor: 'nobody-is-called-this' },
      { facilityId: demoFacilityId },
      { facilityId: newFacilityId },
      { stream: `customer-${backdatedCustomerId}` },
      { from: '2020-03-03', to: '2020-03-05' },
      { to: '2020-03-04' },
      { type: 'invoice_generated', facilityId: demoFacilityId, actor: 'system' },
      { facilityId: newFacilityId, from: '2020-03-04' },
      { from: '2019-06-01', to: '2019-06-01' },
    );
    // A range inside the demo history (six months up to today).
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    filters.push({ from: monthAgo, to: weekAgo }, { from: monthAgo, to: weekAgo, facilityId: demoFacilityId, type: 'lock_heartbeat_received' });
  });

  afterAll(async () => {
    await platform?.close();
  });

  it('the Postgres store is read with SQL; any other store through the port', async () => {
    expect(auditSourceOf(platform.api.store)).toBe('sql');
    let backwardsReads = 0;
    const elsewhere = new Proxy(platform.api.store, {
      get(target, property) {
        if (property === 'kind') return 'eventstoredb';
        if (property === 'readAllBackwards') {
          return (...args: Parameters<EventStore['readAllBackwards']>) => {
            backwardsReads += 1;
            return target.readAllBackwards(...args);
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    expect(auditSourceOf(elsewhere)).toBe('log');
    const filter = { facilityId: newFacilityId };
    const { sql: bySql, log: byLog } = await bothWays(async (source) =>
      source === 'sql'
        ? listAuditEvents(deps, filter, { page: 1, pageSize: 50 })
        : listAuditEvents({ ...deps, store: elsewhere }, filter, { page: 1, pageSize: 50 }),
    );
    expect(backwardsReads).toBeGreaterThan(1); // the whole log, page by page
    expect(byLog).toEqual(bySql);
    expect(bySql.total).toBe(10);
  });

  it('is a log long enough to page through, with events recorded out of the order they occurred in', async () => {
    const all = await listAuditEvents(deps, {}, { page: 1, pageSize: 200 }, 'sql');
    expect(all.total).toBeGreaterThan(2000);
    const backdated = await listAuditEvents(deps, { facilityId: newFacilityId }, { page: 1, pageSize: 50 }, 'sql');
    // Newest first by when they occurred: the events of 2020 come last though they were written last.
    expect(backdated.events.map((e) => e.type)).toEqual([
      'invoice_sent',
      'invoice_generated',
      'payment_received',
      'invoice_sent',
      'invoice_generated',
      'lease_started',
      'unit_status_changed',
      'customer_added',
      'unit_added',
      'facility_added',
    ]);
    const totals = await Promise.all(filters.map((filter) => listAuditEvents(deps, filter, { page: 1, pageSize: 1 }, 'sql')));
    // Each filter keeps some of the log and leaves some out, but one.
    expect(totals.filter((t) => t.total === 0)).toHaveLength(1);
    expect(totals.filter((t) => t.total === all.total)).toHaveLength(1);
  });

  it("events that occurred at the same instant come in the log's order, newest first, also when committed concurrently", async () => {
    const Row = z.object({ id: z.string(), xid: z.string(), gp: z.string() });
    const rows = await platform.api.pool.any(sql.type(Row)`
      SELECT id::text, transaction_id::text AS xid, global_position::text AS gp FROM event_store.events WHERE metadata->>'occurredAt' = ${tie.instant}`);
    const first = rows.find((r) => r.id === tie.committedFirst)!;
    const last = rows.find((r) => r.id === tie.committedLast)!;
    expect(BigInt(first.xid)).toBeLessThan(BigInt(last.xid));
    expect(BigInt(first.gp)).toBeGreaterThan(BigInt(last.gp));

    const filter = { from: '2019-06-01', to: '2019-06-01' };
    const { sql: bySql, log: byLog } = await bothWays((source) => listAuditEvents(deps, filter, { page: 1, pageSize: 50 }, source));
    expect(bySql.events.map((e) => e.id)).toEqual([tie.committedLast, tie.committedFirst]);
    expect(byLog).toEqual(bySql);
  });

  it('answers every filter with the same events, in the same order, with the same total as SQL', async () => {
    const pagings: Paging[] = [
      { page: 1, pageSize: 50 },
      { page: 3, pageSize: 7 },
      { page: 2, pageSize: 200 },
      { page: 9, pageSize: 200 },
      { page: 100_000, pageSize: 200 },
    ];
    for (const filter of filters) {
      for (const paging of pagings) {
        const { sql: bySql, log: byLog } = await bothWays((source) => listAuditEvents(deps, filter, paging, source));
        expect(byLog, `${JSON.stringify(filter)} ${JSON.stringify(paging)}`).toEqual(bySql);
      }
    }
  });

  it("sorts alike both ways: by when events occurred, oldest first, or by the log's own order either way", async () => {
    const sorts = [
      { sort: 'occurredAt', order: 'asc' },
      { sort: 'recordedAt', order: 'desc' },
      { sort: 'recordedAt', order: 'asc' },
    ] as const;
    for (const sort of sorts) {
      for (const filter of [{}, { facilityId: newFacilityId }, { from: '2019-06-01', to: '2019-06-01' }, { actor: 'renter' }]) {
        for (const paging of [
          { page: 1, pageSize: 50 },
          { page: 3, pageSize: 7 },
        ]) {
          const { sql: bySql, log: byLog } = await bothWays((source) => listAuditEvents(deps, { ...filter, ...sort }, paging, source));
          expect(byLog, `${JSON.stringify(sort)} ${JSON.stringify(filter)} ${JSON.stringify(paging)}`).toEqual(bySql);
        }
      }
    }

    const ids = (page: { events: AuditEvent[] }) => page.events.map((event) => event.id);
    const backdated = { facilityId: newFacilityId };
    const newestFirst = await listAuditEvents(deps, backdated, { page: 1, pageSize: 50 }, 'sql');
    const oldestFirst = await listAuditEvents(deps, { ...backdated, sort: 'occurredAt', order: 'asc' }, { page: 1, pageSize: 50 }, 'sql');
    expect(ids(oldestFirst)).toEqual(ids(newestFirst).reverse());
    // The two events of one instant: in the log's order, whichever way.
    const tieDay = { from: '2019-06-01', to: '2019-06-01' };
    expect(ids(await listAuditEvents(deps, { ...tieDay, sort: 'occurredAt', order: 'asc' }, { page: 1, pageSize: 50 }, 'sql'))).toEqual([
      tie.committedFirst,
      tie.committedLast,
    ]);
    // By the log's order, whenever the events occurred (the backdated ones were written after the demo's).
    const Id = z.object({ id: z.string() });
    const inLogOrder = await platform.api.pool.anyFirst(sql.type(Id)`SELECT id::text FROM event_store.events ORDER BY transaction_id, global_position`);
    const firstRecorded = await listAuditEvents(deps, { sort: 'recordedAt', order: 'asc' }, { page: 1, pageSize: 200 }, 'sql');
    expect(ids(firstRecorded)).toEqual(inLogOrder.slice(0, 200));
    const lastRecorded = await listAuditEvents(deps, { sort: 'recordedAt', order: 'desc' }, { page: 1, pageSize: 200 }, 'sql');
    expect(ids(lastRecorded)).toEqual(inLogOrder.slice(-200).reverse());
    expect(ids(lastRecorded)).toEqual(expect.arrayContaining(ids(newestFirst)));
    const newestOccurred = await listAuditEvents(deps, {}, { page: 1, pageSize: 200 }, 'sql');
    expect(ids(newestOccurred).filter((id) => ids(newestFirst).includes(id))).toEqual([]);
  });

  it('exports the same events in the same order both ways', async () => {
    for (const filter of [{}, { actor: 'renter' }, { facilityId: demoFacilityId }, { facilityId: newFacilityId, to: '2020-03-05' }]) {
      const { sql: bySql, log: byLog } = await bothWays((source) => exported(filter, source));
      expect(byLog.length, JSON.stringify(filter)).toBe(bySql.length);
      expect(byLog, JSON.stringify(filter)).toEqual(bySql);
    }
  });
});
