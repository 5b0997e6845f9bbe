import { parseArgs } from 'node:util';
import { listActivities } from '@storage/api/activities/queries';
import { listAuditEvents } from '@storage/api/history/queries';
import { ListActivitiesQuery } from '@storage/contracts/activities';
import { createDatabasePool } from '@storage/platform/db';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { load, machine, startRun } from './measure.ts';

// `npm run bench:audit -- --database postgres://…/large`: the auditors' event log and the activity
// feed on a history that is already there (the large one: restore /work/wt/large.dump or run
// `npm run ops -- seed --scale large`, then `ops migrate` and `ops rebuild`): the first page, a page
// deep in the list (read from the cursor of the page before it) and each filter, as p50 and p95
// of repeated reads through the API's own query functions. The peer, in the same run, is how the
// log and the feed were read before issue 14: OFFSET and an exact count(*), the log over
// event_store.events' JSON (the peer's figures depend on the JSON indexes the store still has).
// The deep pages are also read as the console jumps to them from a page shown near it (a cursor
// and whole pages skipped: the same request a reload of the page's URL makes), and as a page
// number typed in without a cursor (PEER_REPEATS reads: it is the slow one).

const TARGET_P95_MS = 30;
const REPEATS = 30;
const PEER_REPEATS = 5;
const PAGE_SIZE = 25;

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    repeats: { type: 'string' },
    /** The audit log's deep page (10,000 on the large history; a smaller history has fewer pages). */
    'deep-page': { type: 'string', default: '10000' },
  },
});
const databaseUrl = values.database ?? process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('--database (or DATABASE_URL): a database that holds a history and its read model');
const repeats = Number(values.repeats ?? REPEATS);
const DEEP_PAGE = Number(values['deep-page']);
if (!Number.isInteger(repeats) || repeats < 1) throw new Error('--repeats must be a whole number of at least 1');
if (!Number.isInteger(DEEP_PAGE) || DEEP_PAGE < 2) throw new Error('--deep-page must be a whole number of at least 2');
// The database named by its name only: its address may carry a password.
const run = startRun('audit', { database: new URL(databaseUrl).pathname.slice(1), repeats, deepPage: DEEP_PAGE });

type Figure = { p50: number; p95: number };

async function time(n: number, read: () => Promise<unknown>): Promise<Figure> {
  await read(); // warm
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await read();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95) };
}

const rows: string[][] = [];
const measured: Array<Record<string, unknown>> = [];
let misses = 0;
function report(name: string, ours: Figure, peer?: Figure) {
  const met = ours.p95 < TARGET_P95_MS;
  if (!met) misses++;
  measured.push({ read: name, p50Ms: ours.p50, p95Ms: ours.p95, targetMet: met, peerP95Ms: peer?.p95 ?? null });
  rows.push([
    name,
    ours.p50.toFixed(1),
    ours.p95.toFixed(1),
    met ? 'met' : 'NOT met',
    peer ? peer.p95.toFixed(1) : '',
    peer ? `${(peer.p95 / ours.p95).toFixed(1)}x faster` : '',
  ]);
  console.log(`  ${name}: p95 ${ours.p95.toFixed(1)} ms${peer ? ` (before: ${peer.p95.toFixed(1)} ms)` : ''}`);
}

/** A cursor `pages` pages into the list (read once by number, not timed), to time the page after it from. */
async function cursorAt<T>(read: (page: number, cursor?: string) => Promise<{ next: string | null; items: T[] }>, page: number): Promise<string> {
  const { next } = await read(page - 1);
  if (!next) throw new Error(`the list has fewer than ${page} pages`);
  return next;
}

type ReadPage = (page: number, paging: { cursor?: string; skip?: number }) => Promise<{ nextCursor: string | null; prevCursor: string | null }>;

/**
 * A deep page as the console asks for it from a page it shows near it (console/src/lib/list-page.ts),
 * which is also the request a reload of that page's URL makes: two pages ahead from the next
 * cursor of the page shown, one page skipped; the "•••" jump five back from its previous cursor,
 * four skipped. And typed into the URL by number, without a cursor: still counted from the start.
 */
async function jumpsTo(list: string, page: number, read: ReadPage, peer: Figure) {
  const at = `${list}, page ${page.toLocaleString('en-US')}`;
  const ahead = (await read(page - 2, {})).nextCursor;
  const back = (await read(page + 5, {})).prevCursor;
  if (!ahead || !back) throw new Error(`${list} has fewer than ${page + 5} pages`);
  report(`${at} two ahead of the page shown, or its URL reloaded (cursor, skip 1)`, await time(repeats, () => read(page, { cursor: ahead, skip: 1 })), peer);
  report(`${at} ••• five back from the page shown (cursor, skip 4)`, await time(repeats, () => read(page, { cursor: back, skip: 4 })), peer);
  report(`${at} typed page number (no cursor)`, await time(PEER_REPEATS, () => read(page, {})), peer);
}

async function auditLog(pool: DatabasePool) {
  const count = (filter: object) => async (page: number, cursor?: string) => {
    const { events, info } = await listAuditEvents(pool, filter, { page, pageSize: PAGE_SIZE, cursor });
    return { next: info.nextCursor, items: events };
  };
  const Id = z.object({ id: z.string() });
  const facilityId = await pool.oneFirst(sql.type(Id)`SELECT id::text AS id FROM facilities ORDER BY name LIMIT 1`);
  const renter = await pool.oneFirst(sql.type(z.object({ name: z.string() }))`SELECT first_name AS name FROM customers ORDER BY id LIMIT 1`);
  const stream = await pool.oneFirst(sql.type(z.object({ s: z.string() }))`SELECT 'customer-' || id AS s FROM customers ORDER BY id LIMIT 1`);
  // The renter with the most invoices: their streams are the most a customer's filter reads.
  const customerId = await pool.oneFirst(sql.type(Id)`SELECT customer_id::text AS id FROM invoices GROUP BY customer_id ORDER BY count(*) DESC LIMIT 1`);
  const correlationId = await pool.oneFirst(
    sql.type(Id)`SELECT correlation_id AS id FROM audit_log WHERE correlation_id IS NOT NULL ORDER BY position DESC LIMIT 1`,
  );
  const filters: Array<[string, object]> = [
    ['no filter', {}],
    ['type customer_updated', { type: 'customer_updated' }],
    ['type lock_heartbeat_received', { type: 'lock_heartbeat_received' }],
    ['actor "system"', { actor: 'system' }],
    ['actor "renter" (every renter)', { actor: 'renter' }],
    [`actor "${renter}" (one renter's name)`, { actor: renter }],
    ['dates (one week)', { from: '2026-06-01', to: '2026-06-07' }],
    ['facility', { facilityId }],
    ['entity (one stream)', { stream }],
    ['customer (with their leases and invoices)', { customerId }],
    ['one request (correlation id)', { correlationId }],
    ['type + facility + dates', { type: 'invoice_sent', facilityId, from: '2026-01-01', to: '2026-06-30' }],
    ['oldest first', { order: 'asc' }],
    ['by recorded, newest first', { sort: 'recordedAt' }],
  ];
  console.log('Audit log:');
  for (const [name, filter] of filters) {
    report(`audit log, ${name}, first page`, await time(repeats, () => listAuditEvents(pool, filter, { page: 1, pageSize: PAGE_SIZE })));
    const later = Math.min(DEEP_PAGE, 40);
    const deep = await cursorAt(count(filter), later).catch(() => null);
    if (deep)
      report(
        `audit log, ${name}, a later page from its cursor`,
        await time(repeats, () => listAuditEvents(pool, filter, { page: later + 1, pageSize: PAGE_SIZE, cursor: deep })),
      );
  }
  const deepCursor = await cursorAt(count({}), DEEP_PAGE);
  const peerFirst = await time(PEER_REPEATS, () => peerAuditPage(pool, 1));
  const peerDeep = await time(PEER_REPEATS, () => peerAuditPage(pool, DEEP_PAGE));
  report(
    'audit log, first page (peer: OFFSET + count(*) over event_store.events)',
    await time(repeats, () => listAuditEvents(pool, {}, { page: 1, pageSize: PAGE_SIZE })),
    peerFirst,
  );
  report(
    `audit log, page ${DEEP_PAGE.toLocaleString('en-US')} from its cursor (peer: OFFSET)`,
    await time(repeats, () => listAuditEvents(pool, {}, { page: DEEP_PAGE, pageSize: PAGE_SIZE, cursor: deepCursor })),
    peerDeep,
  );
  await jumpsTo('audit log', DEEP_PAGE, async (page, paging) => (await listAuditEvents(pool, {}, { page, pageSize: PAGE_SIZE, ...paging })).info, peerDeep);
  const peerActor = await time(PEER_REPEATS, () => peerAuditActor(pool, renter.toLowerCase()));
  report(
    `audit log, actor "${renter}" (peer: JSON actor over event_store.events)`,
    await time(repeats, () => listAuditEvents(pool, { actor: renter }, { page: 1, pageSize: PAGE_SIZE })),
    peerActor,
  );
}

/** The log as read before issue 14: SQL over event_store.events, OFFSET, and an exact count. */
async function peerAuditPage(pool: DatabasePool, page: number) {
  await pool.any(sql.unsafe`
    SELECT e.id::text, e.type, e.stream_name, e.data, e.metadata->'actor' AS actor, e.metadata->>'occurredAt' AS occurred_at
    FROM event_store.events e ORDER BY e.metadata->>'occurredAt' DESC, e.transaction_id DESC, e.global_position DESC
    LIMIT ${PAGE_SIZE} OFFSET ${(page - 1) * PAGE_SIZE}`);
  await pool.oneFirst(sql.unsafe`SELECT count(*)::int8 FROM event_store.events e`);
}

async function peerAuditActor(pool: DatabasePool, term: string) {
  const pattern = `%${term}%`;
  await pool.any(sql.unsafe`
    SELECT e.id::text FROM event_store.events e
    WHERE (e.metadata->'actor'->>'type' = 'customer' AND e.metadata->'actor'->>'id' IN (
      SELECT id::text FROM customers WHERE lower(concat_ws(' ', 'renter', first_name, last_name, email)) LIKE ${pattern}))
    ORDER BY e.metadata->>'occurredAt' DESC, e.transaction_id DESC, e.global_position DESC LIMIT ${PAGE_SIZE}`);
  await pool.oneFirst(sql.unsafe`
    SELECT count(*)::int8 FROM event_store.events e
    WHERE (e.metadata->'actor'->>'type' = 'customer' AND e.metadata->'actor'->>'id' IN (
      SELECT id::text FROM customers WHERE lower(concat_ws(' ', 'renter', first_name, last_name, email)) LIKE ${pattern}))`);
}

async function activityFeed(pool: DatabasePool) {
  const query = (q: object) => ListActivitiesQuery.parse({ pageSize: 50, ...q });
  const read = (q: object) => async (page: number, cursor?: string) => {
    const { activities, info } = await listActivities(pool, query({ ...q, page, cursor }));
    return { next: info.nextCursor, items: activities };
  };
  const facilityId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`SELECT id::text AS id FROM facilities ORDER BY name LIMIT 1`);
  const total = await pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int8 AS n FROM activities`);
  const deepPage = Math.max(2, Math.floor(total / 50 / 2));
  console.log('Activity feed:');
  for (const [name, q] of [
    ['all', {}],
    ['tab payments', { tab: 'payments' }],
    ['tab customers', { tab: 'customers' }],
    ['type customer_updated', { type: 'customer_updated' }],
    ['search "invoice"', { search: 'invoice' }],
    ['facility', { facilityId }],
    ['oldest first', { order: 'asc' }],
  ] as Array<[string, object]>) {
    report(`activity feed, ${name}, first page`, await time(repeats, () => listActivities(pool, query({ ...q, page: 1 }))));
    const later = await cursorAt(read(q), 40).catch(() => null);
    if (later)
      report(`activity feed, ${name}, a later page from its cursor`, await time(repeats, () => listActivities(pool, query({ ...q, page: 41, cursor: later }))));
  }
  const deep = await cursorAt(read({}), deepPage);
  const peer = await time(PEER_REPEATS, async () => {
    await pool.any(sql.unsafe`
      SELECT a.id::text, a.description, c.first_name FROM activities a LEFT JOIN customers c ON c.id = a.customer_id
      ORDER BY a.created_at DESC, a.recorded_order DESC, a.id DESC LIMIT 50 OFFSET ${(deepPage - 1) * 50}`);
    await pool.oneFirst(sql.unsafe`SELECT count(*)::int8 FROM activities a`);
  });
  report(
    `activity feed, page ${deepPage.toLocaleString('en-US')} of ${Math.ceil(total / 50).toLocaleString('en-US')} from its cursor (peer: OFFSET + count(*))`,
    await time(repeats, () => listActivities(pool, query({ page: deepPage, cursor: deep }))),
    peer,
  );
  await jumpsTo('activity feed', deepPage, async (page, paging) => (await listActivities(pool, query({ page, ...paging }))).info, peer);
}

const pool = await createDatabasePool(databaseUrl, { maxPoolSize: 2 });
try {
  const version = await pool.oneFirst(sql.unsafe`SELECT current_setting('server_version')`);
  const events = await pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int8 AS n FROM audit_log`);
  console.log(`Machine: ${machine()}, PostgreSQL ${String(version)}`);
  run.environment.postgres = String(version);
  console.log(`History: ${events.toLocaleString('en-US')} events. Load average at start: ${load()}. ${repeats} reads each (peer ${PEER_REPEATS}).`);
  await auditLog(pool);
  await activityFeed(pool);
  console.log(`\nLoad average at end: ${load()}`);
  console.log(`Target: p95 under ${TARGET_P95_MS} ms for each.\n`);
  const header = ['read', 'p50 ms', 'p95 ms', 'target', 'peer p95 ms', 'ratio'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
  console.log(misses === 0 ? '\nEvery read met the target.' : `\n${misses} read(s) missed the target.`);
  run.write({
    history: { events },
    readsEach: repeats,
    peerReadsEach: PEER_REPEATS,
    target: { p95UnderMs: TARGET_P95_MS, readsMissed: misses },
    reads: measured,
  });
} finally {
  await pool.end();
}
