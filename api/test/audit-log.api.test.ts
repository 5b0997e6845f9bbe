// The auditors' event log is a read table of its own (the audit-log projection), one path on any
// event store. Here it is checked against the log itself, read through the event store port and
// filtered and ordered in plain code: every filter and order, page by page from cursors and by
// page number, must answer exactly those events in exactly that order.

import { randomUUID } from 'node:crypto';
import { auditEventsMatching, listAuditEvents } from '@storage/api/history/queries';
import { readableEvent, readStreamName, type StreamKind, shownStreamName, streams } from '@storage/contracts/events';
import type { AuditEvent, AuditEventsFilter } from '@storage/contracts/history';
import { NEXT_CURSOR_HEADER, type Paging, TOTAL_COUNT_HEADER } from '@storage/contracts/paging';
import { comparePositions, type NewEvent, type Position, type RecordedEvent } from '@storage/eventstore/port';
import { appendWithinTransaction } from '@storage/eventstore/postgres';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import pg from 'pg';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { historyWriter } from './history.ts';

const logOrder = (p: Position) => ((p.hi << 64n) + p.lo).toString();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Filter = AuditEventsFilter & { sort?: 'occurredAt' | 'recordedAt'; order?: 'asc' | 'desc' };

describe('the event log, a read table of its own', () => {
  let platform: TestPlatform;
  let pool: TestPlatform['api']['pool'];
  let demoFacilityId: string;
  let newFacilityId: string;
  let backdatedCustomerId: string;
  let renterFirstName: string;
  /** The request that edited the customer added below: its X-Request-Id, the correlation id of what it appended. */
  let editRequestId: string;
  /** Two events that occurred at the same instant: `committedFirst` has the larger global_position, the smaller transaction id. */
  const tie = { instant: '2019-06-01T12:00:00.000Z', committedFirst: '', committedLast: '' };
  const filters: Filter[] = [];

  /** The whole log, in its order, as the port reads it. */
  async function log(): Promise<RecordedEvent[]> {
    const all: RecordedEvent[] = [];
    let after: Position | null = null;
    for (;;) {
      const batch = await platform.api.store.readAll({ after, limit: 5000 });
      all.push(...batch);
      if (batch.length < 5000) return all;
      after = batch.at(-1)!.position;
    }
  }

  /** Waits until the audit-log projection has passed the newest event the log reads now (an append just made may not be read yet). */
  async function projected(): Promise<RecordedEvent[]> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const events = await log();
      const newest = events.at(-1)!.position;
      if (await platform.api.afterAppend(newest, 1000)) return events;
      if (Date.now() > deadline) throw new Error('the audit log did not catch up');
      await pause(50);
    }
  }

  /** The log's answer to a filter, in plain code: the oracle the read table is held to. */
  async function expected(events: RecordedEvent[], filter: Filter): Promise<string[]> {
    const IdRow = z.object({ id: z.string() });
    const term = filter.actor?.toLowerCase();
    const people = term
      ? new Set(
          await pool.anyFirst(sql.type(IdRow)`
            SELECT id::text AS id FROM staff WHERE position(${term} IN lower(concat_ws(' ', first_name, last_name, email))) > 0
            UNION ALL SELECT id::text FROM customers WHERE position(${term} IN lower(concat_ws(' ', 'renter', first_name, last_name, email))) > 0`),
        )
      : null;
    // The facility each row keeps (as of its event: checked on its own below) stands for itself here.
    const members = filter.facilityId
      ? new Set(await pool.anyFirst(sql.type(IdRow)`SELECT event_id::text AS id FROM audit_log WHERE facility_id = ${filter.facilityId}`))
      : null;
    const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const kept = events
      .map((event, seq) => ({ event, seq }))
      .filter(({ event }) => {
        const { actor, occurredAt } = event.metadata;
        if (filter.type && event.type !== filter.type) return false;
        if (filter.stream && shownStreamName(event.streamName) !== filter.stream) return false;
        if (filter.correlationId && event.metadata.correlationId !== filter.correlationId) return false;
        if (term && !(actor.type === 'system' ? 'system'.includes(term) : people!.has(actor.id))) return false;
        if (members && !members.has(event.id)) return false;
        if (filter.from && occurredAt < filter.from) return false;
        if (filter.to && occurredAt >= dayAfter(filter.to)) return false;
        return true;
      });
    const byOccurred = (filter.sort ?? 'occurredAt') === 'occurredAt';
    const direction = (filter.order ?? 'desc') === 'desc' ? -1 : 1;
    kept.sort((a, b) => {
      const x = a.event.metadata.occurredAt;
      const y = b.event.metadata.occurredAt;
      if (byOccurred && x !== y) return (x < y ? -1 : 1) * direction;
      return (a.seq - b.seq) * direction;
    });
    return kept.map(({ event }) => event.id);
  }

  const ids = (events: AuditEvent[]) => events.map((e) => e.id);

  /** Every page of the filter, each read from the cursor the one before it answered. */
  async function walk(filter: Filter, pageSize: number): Promise<{ pages: AuditEvent[][]; cursors: (string | undefined)[] }> {
    const pages: AuditEvent[][] = [];
    const cursors: (string | undefined)[] = [];
    let cursor: string | undefined;
    for (let page = 1; ; page++) {
      const { events, info } = await listAuditEvents(pool, filter, { page, pageSize, cursor });
      pages.push(events);
      cursors.push(cursor);
      if (!info.nextCursor) return { pages, cursors };
      cursor = info.nextCursor;
    }
  }

  beforeAll(async () => {
    platform = await startTestPlatform({ seedDemo: true });
    pool = platform.api.pool;
    const cookie = await platform.signIn();
    const IdRow = z.object({ id: z.string() });
    demoFacilityId = await pool.oneFirst(sql.type(IdRow)`SELECT id::text AS id FROM facilities ORDER BY name LIMIT 1`);
    renterFirstName = await pool.oneFirst(sql.type(z.object({ name: z.string() }))`
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
    const edited = await inject('PATCH', `/api/customers/${added.json().id}`, { lastName: 'Log-Reader' });
    expect(edited.statusCode).toBe(200);
    editRequestId = edited.headers['x-request-id'] as string;

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
    const tieEvent = (stream: string): NewEvent => ({
      id: randomUUID(),
      type: 'unique_key_claimed',
      data: { ownerStream: stream },
      metadata: { actor: { type: 'system' }, correlationId: randomUUID(), causationId: null, schemaVersion: 1, occurredAt: tie.instant },
    });
    const early = new pg.Client({ connectionString: platform.database.url });
    await early.connect();
    try {
      await early.query('BEGIN');
      await early.query('SELECT pg_current_xact_id()');
      const last = tieEvent('audit-tie-last');
      await platform.api.store.append(streams.uniqueKey('facility-name', `audit-tie-${randomUUID()}`), [last], { expectedRevision: 'no_stream' });
      const first = tieEvent('audit-tie-first');
      await appendWithinTransaction(early, streams.uniqueKey('facility-name', `audit-tie-${randomUUID()}`), [first], 'no_stream');
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
      { correlationId: editRequestId },
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

  it('holds one row per event of the log, in its order, its data in the shape and redaction the screen shows, with its request, cause and revision', async () => {
    const events = await projected();
    const Row = z.object({
      event_id: z.string(),
      stream_name: z.string(),
      data: z.record(z.string(), z.unknown()),
      recorded_at: z.string(),
      correlation_id: z.string().nullable(),
      causation_id: z.string().nullable(),
      stream_revision: z.string().nullable(),
    });
    const newest = events.at(-1)!.position;
    const rows = await pool.any(sql.type(Row)`
      SELECT event_id::text, stream_name, data, recorded_at, correlation_id, causation_id, stream_revision::text
      FROM audit_log WHERE position <= ${logOrder(newest)}::numeric ORDER BY position`);
    expect(rows.map((r) => r.event_id)).toEqual(events.map((e) => e.id));
    rows.forEach((row, i) => {
      const event = events[i]!;
      expect(row).toEqual({
        event_id: event.id,
        stream_name: shownStreamName(event.streamName),
        data: readableEvent(event.type, event.metadata.schemaVersion, event.data),
        recorded_at: event.recordedAt,
        correlation_id: event.metadata.correlationId,
        causation_id: event.metadata.causationId,
        stream_revision: event.revision.toString(),
      });
    });
  });

  it('is a log long enough to page through, with events recorded out of the order they occurred in', async () => {
    await projected();
    const all = await listAuditEvents(pool, {}, { page: 1, pageSize: 200 });
    expect(all.info.total.count).toBeGreaterThan(2000);
    const backdated = await listAuditEvents(pool, { facilityId: newFacilityId }, { page: 1, pageSize: 50 });
    // Newest first by when they occurred: the events of 2020 come last though they were written last.
    expect(backdated.events.map((e) => e.type)).toEqual([
      // The lease's gate code, assigned when it was projected (now), is the lease's facility's too.
      'gate_code_assigned',
      'invoice_sent',
      'invoice_generated',
      'account_invoice_listed',
      'payment_received',
      'invoice_sent',
      'invoice_generated',
      'account_invoice_listed',
      'lease_started',
      'customer_lease_listed',
      'unit_status_changed',
      'customer_added',
      'unit_added',
      'facility_added',
    ]);
    expect(backdated.info.total).toEqual({ count: 14, kind: 'exact' });
    const totals = await Promise.all(filters.map((filter) => listAuditEvents(pool, filter, { page: 1, pageSize: 1 })));
    // Each filter keeps some of the log and leaves some out, but one.
    expect(totals.filter((t) => t.info.total.count === 0)).toHaveLength(1);
    expect(totals.filter((t) => t.info.total.count === all.info.total.count)).toHaveLength(1);
  });

  it("events that occurred at the same instant come in the log's order, newest first, also when committed concurrently", async () => {
    await projected();
    const Row = z.object({ id: z.string(), xid: z.string(), gp: z.string() });
    const rows = await pool.any(sql.type(Row)`
      SELECT id::text, transaction_id::text AS xid, global_position::text AS gp FROM event_store.events WHERE id = ANY(${sql.array([tie.committedFirst, tie.committedLast], 'uuid')})`);
    const first = rows.find((r) => r.id === tie.committedFirst)!;
    const last = rows.find((r) => r.id === tie.committedLast)!;
    expect(BigInt(first.xid)).toBeLessThan(BigInt(last.xid));
    expect(BigInt(first.gp)).toBeGreaterThan(BigInt(last.gp));

    const tieDay = { from: '2019-06-01', to: '2019-06-01' };
    expect(ids((await listAuditEvents(pool, tieDay, { page: 1, pageSize: 50 })).events)).toEqual([tie.committedLast, tie.committedFirst]);
    expect(ids((await listAuditEvents(pool, { ...tieDay, order: 'asc' }, { page: 1, pageSize: 50 })).events)).toEqual([tie.committedFirst, tie.committedLast]);
  });

  it('answers every filter and order with the log’s events in the log’s order: page by page from cursors, and by page number', async () => {
    const sorts = [{}, { sort: 'occurredAt', order: 'asc' }, { sort: 'recordedAt', order: 'desc' }, { sort: 'recordedAt', order: 'asc' }] as const;
    for (let attempt = 0; ; attempt++) {
      const events = await projected();
      const mismatches: string[] = [];
      for (const filter of filters) {
        for (const sort of sorts) {
          const asked = { ...filter, ...sort };
          const want = await expected(events, asked);
          const what = JSON.stringify(asked);
          const { pages } = await walk(asked, 97);
          if (JSON.stringify(pages.flatMap(ids)) !== JSON.stringify(want)) mismatches.push(`cursor walk ${what}`);
          for (const paging of [
            { page: 1, pageSize: 50 },
            { page: 3, pageSize: 7 },
            { page: 9, pageSize: 200 },
            { page: 100_000, pageSize: 200 },
          ] satisfies Paging[]) {
            const { events: page, info } = await listAuditEvents(pool, asked, paging);
            const offset = (paging.page - 1) * paging.pageSize;
            if (JSON.stringify(ids(page)) !== JSON.stringify(want.slice(offset, offset + paging.pageSize)))
              mismatches.push(`${what} ${JSON.stringify(paging)}`);
            if (info.total.kind === 'exact' && info.total.count !== want.length) mismatches.push(`total ${what}`);
          }
        }
      }
      // The projector's scheduled jobs may append meanwhile: then the log is read again.
      if ((await log()).length === events.length || attempt === 4) {
        expect(mismatches).toEqual([]);
        return;
      }
    }
  });

  it('goes back a page from the cursor it answered, and refuses a cursor it did not write with a 400 naming it', async () => {
    await projected();
    const filter = { actor: 'system' };
    const { pages } = await walk(filter, 40);
    expect(pages.length).toBeGreaterThan(3);
    const third = await listAuditEvents(pool, filter, { page: 3, pageSize: 40 });
    const back = await listAuditEvents(pool, filter, { page: 2, pageSize: 40, cursor: third.info.prevCursor! });
    expect(ids(back.events)).toEqual(ids(pages[1]!));
    const first = await listAuditEvents(pool, filter, { page: 1, pageSize: 40, cursor: back.info.prevCursor! });
    expect(ids(first.events)).toEqual(ids(pages[0]!));
    expect(first.info.prevCursor).toBeNull();

    const cookie = await platform.signIn('auditor');
    const get = (url: string) => platform.api.app.inject({ method: 'GET', url, headers: { cookie } });
    const page1 = await get('/api/audit/events?pageSize=25');
    expect(page1.statusCode).toBe(200);
    const next = page1.headers[NEXT_CURSOR_HEADER] as string;
    const page2 = await get(`/api/audit/events?pageSize=25&page=2&cursor=${next}`);
    expect(page2.statusCode).toBe(200);
    expect(Number(page2.headers[TOTAL_COUNT_HEADER])).toBeGreaterThan(0);
    expect(ids(page2.json())).toEqual(ids((await listAuditEvents(pool, {}, { page: 2, pageSize: 25 })).events));
    for (const bad of ['not-a-cursor', next.slice(0, 10)]) {
      const refused = await get(`/api/audit/events?cursor=${bad}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain('cursor');
    }
    // Written for another order.
    const otherOrder = await get(`/api/audit/events?sort=recordedAt&cursor=${next}`);
    expect(otherOrder.statusCode).toBe(400);
  });

  it('exports every event the filter matches, in the order of the screen', async () => {
    for (let attempt = 0; ; attempt++) {
      const events = await projected();
      const results: Array<[string[], string[]]> = [];
      for (const filter of [{}, { actor: 'renter' }, { facilityId: demoFacilityId }, { facilityId: newFacilityId, to: '2020-03-05' }]) {
        const exported: AuditEvent[] = [];
        for await (const batch of auditEventsMatching(pool, filter)) exported.push(...batch);
        results.push([ids(exported), await expected(events, filter)]);
      }
      if ((await log()).length === events.length || attempt === 4) {
        for (const [got, want] of results) expect(got).toEqual(want);
        return;
      }
    }
  });

  it('keeps the facility an event happened in: a renter who moves takes only their later events along', async () => {
    const writer = historyWriter(platform);
    const otherFacilityId = await writer.facility(new Date('2020-04-01T09:00:00.000Z'), 'Elsewhere Storage');
    // An edit no longer moves a customer between facilities; one written before that still did.
    const metadata = {
      actor: { type: 'system' as const },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
      occurredAt: new Date().toISOString(),
    };
    const moved = { customerId: backdatedCustomerId, changes: { facilityId: otherFacilityId } };
    const { position } = await platform.api.store.append(
      streams.customer(backdatedCustomerId),
      [{ id: randomUUID(), type: 'customer_updated', data: moved, metadata }],
      { expectedRevision: 'any' },
    );
    // Waited for by its own position: the log read at once may not reach it yet (it is read up to
    // the oldest transaction still open, and one may be).
    expect(await platform.api.afterAppend(position, 30_000)).toBe(true);
    const there = await listAuditEvents(pool, { facilityId: otherFacilityId, stream: `customer-${backdatedCustomerId}` }, { page: 1, pageSize: 50 });
    expect(there.events.map((e) => e.type)).toEqual(['customer_updated']);
    const before = await listAuditEvents(pool, { facilityId: newFacilityId, stream: `customer-${backdatedCustomerId}` }, { page: 1, pageSize: 50 });
    expect(before.events.map((e) => e.type)).toEqual(['customer_lease_listed', 'customer_added']);
  });

  it("files a lock's routine heartbeats, on a stream of their own, under the facility the lock was in when it reported", async () => {
    const events = await projected();
    const units = new Map(
      (await pool.any(sql.type(z.object({ id: z.string(), facility_id: z.string() }))`SELECT id::text, facility_id::text FROM units`)).map((u) => [
        u.id,
        u.facility_id,
      ]),
    );
    // The log's own account: where each lock was put (or taken off) last before each report.
    const unitOfLock = new Map<string, string | null>();
    const want = new Map<string, string | null>();
    for (const event of events) {
      const named = readStreamName(event.streamName);
      if (event.type === 'lock_assigned') unitOfLock.set(named!.parts[0]!, (event.data as { unitId: string | null }).unitId);
      if (named?.kind === 'lockHeartbeats') want.set(event.id, units.get(unitOfLock.get(named.parts[0]!) ?? '') ?? null);
    }
    const Row = z.object({ event_id: z.string(), facility_id: z.string().nullable() });
    const rows = await pool.any(sql.type(Row)`
      SELECT event_id::text, facility_id::text FROM audit_log WHERE stream_name LIKE 'lock-heartbeats-%' AND position <= ${logOrder(events.at(-1)!.position)}::numeric`);
    expect(new Map(rows.map((r) => [r.event_id, r.facility_id]))).toEqual(want);
    // The demo's locks report every two weeks, a good share of them from a rented unit (the rest while spare).
    expect([...want.values()].filter((f) => f !== null).length).toBeGreaterThan(want.size / 4);
  });

  it("files the events of an entity's other streams where the entity's own events of that moment are, and those a facility names under it", async () => {
    const events = await projected();
    const Row = z.object({ stream_name: z.string(), facility_id: z.string().nullable() });
    const rows = await pool.any(sql.type(Row)`
      SELECT stream_name, facility_id::text FROM audit_log WHERE position <= ${logOrder(events.at(-1)!.position)}::numeric ORDER BY position`);
    // The stream of the entity each other stream belongs to: a renter's account, delinquency and
    // saved cards; a lease's gate code; an invoice's autopay charges.
    const ownerOf: Partial<Record<StreamKind, (id: string) => string>> = {
      account: streams.customer,
      delinquency: streams.customer,
      paymentProfile: streams.customer,
      gateCode: streams.lease,
      autopayCharges: streams.invoice,
    };
    const facilityNaming: StreamKind[] = ['billingDay', 'accessLog', 'notificationMarks', 'settings'];
    const isId = (text: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(text);
    // In the log's order: where each entity's own rows left it, and every other stream's row against it.
    const entityFacility = new Map<string, string | null>();
    const astray: string[] = [];
    const kinds = new Set<string>();
    for (const row of rows) {
      const named = readStreamName(row.stream_name);
      const owner = named && ownerOf[named.kind];
      if (owner) {
        kinds.add(named.kind);
        const want = entityFacility.get(owner(named.parts[0]!)) ?? null;
        if (row.facility_id !== want || want === null) astray.push(`${row.stream_name}: ${row.facility_id} (its entity: ${want})`);
      } else if (named && facilityNaming.includes(named.kind)) {
        kinds.add(named.kind);
        const want = isId(named.parts[0]!) ? named.parts[0]! : null;
        if (row.facility_id !== want) astray.push(`${row.stream_name}: ${row.facility_id} (named: ${want})`);
      } else {
        entityFacility.set(row.stream_name, row.facility_id);
      }
    }
    expect(astray).toEqual([]);
    // The demo's renters have accounts, delinquencies and gate codes, all at a facility, and its
    // facilities billing days (saved cards and autopay charges are the portal's, checked with them).
    expect([...kinds]).toEqual(expect.arrayContaining(['account', 'delinquency', 'gateCode', 'billingDay']));
  });

  it('answers from the read table alone: positions in the log order the port gives', async () => {
    const events = await projected();
    // Ordered by the column, not by the text the select list names `position` (which ORDER BY would take: 9… before 10…).
    const positions = await pool.anyFirst(sql.type(z.object({ position: z.string() }))`
      SELECT a.position::text AS position FROM audit_log a WHERE a.position <= ${logOrder(events.at(-1)!.position)}::numeric ORDER BY a.position`);
    const asPositions = positions.map((p) => ({ hi: BigInt(p) >> 64n, lo: BigInt(p) & ((1n << 64n) - 1n) }));
    // Said as what is missing from the table and what it holds that the log does not, with the events' types, so a failure tells which.
    const inTable = new Set(positions);
    const inLog = new Map(events.map((e) => [logOrder(e.position), e]));
    const missing = events.filter((e) => !inTable.has(logOrder(e.position))).map((e) => `${logOrder(e.position)} ${e.type} ${e.streamName}`);
    const extra = positions.filter((p) => !inLog.has(p));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    expect(asPositions.filter((p, i) => comparePositions(p, events[i]!.position) !== 0)).toEqual([]);
  });
});
