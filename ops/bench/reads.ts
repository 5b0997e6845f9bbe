import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { billingRunsSql } from '@storage/api/billing-runs/queries';
import { customersSql } from '@storage/api/customers/queries';
import { facilitiesSql } from '@storage/api/facilities/queries';
import { type ListSql, orderSql } from '@storage/api/http/list-page';
import { invoicesSql } from '@storage/api/invoices/queries';
import { leasesSql } from '@storage/api/leases/queries';
import { locksSql } from '@storage/api/locks/queries';
import { messagesSql } from '@storage/api/messages/queries';
import { rentRollSql } from '@storage/api/reports/ledger-reports';
import { reservationsSql, waitlistSql } from '@storage/api/reservations/queries';
import { type ApiServer, createApiServer } from '@storage/api/server';
import { staffSql } from '@storage/api/staff/queries';
import { unitsSql } from '@storage/api/units/queries';
import { ListBillingRunsQuery } from '@storage/contracts/billing';
import { ListCustomersQuery } from '@storage/contracts/customers';
import { ListFacilitiesQuery } from '@storage/contracts/facilities';
import { ListInvoicesQuery } from '@storage/contracts/invoices';
import { ListLeasesQuery } from '@storage/contracts/leases';
import { ListLocksQuery } from '@storage/contracts/locks';
import { ListMessagesQuery } from '@storage/contracts/messages';
import { NEXT_CURSOR_HEADER, PREV_CURSOR_HEADER, TOTAL_CAPPED_HEADER, TOTAL_COUNT_HEADER, TOTAL_ESTIMATED_HEADER } from '@storage/contracts/paging';
import { RentRollQuery } from '@storage/contracts/reports';
import { ListReservationsQuery, ListWaitlistQuery } from '@storage/contracts/reservations';
import { ListStaffQuery } from '@storage/contracts/staff';
import { ListUnitsQuery } from '@storage/contracts/units';
import { registerStaff } from '@storage/domain/auth/staff';
import { readConfig } from '@storage/platform/config';
import { migrateReadModel } from '@storage/platform/migrate';
import { readModelProjections } from '@storage/projector/projections';
import { catchUpTo } from '@storage/projector/runner';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { adminQuery, load, machine, percentile, serverUrl, startRun, targetMissed } from './measure.ts';
import { reportPeers } from './report-peers.ts';
import { sessionCookie } from './session-cookie.ts';

// `npm run bench:reads [-- --from large --samples 15 --keep --analyze-only]`: every staff list (first, middle
// and last page, each filter, search and sort the screens offer), the activity feed, the audit log
// (each filter), an entity's history, the dashboard and the reports, through the HTTP API
// (app.inject, signed in as an owner) on the large history. The history is a copy
// (CREATE DATABASE ... TEMPLATE) of the database named by --from on the server of DATABASE_URL,
// else TEST_POSTGRES_URL, else the local PostgreSQL: restore /work/wt/large.dump into it, or
// `npm run ops -- seed --scale large`. The copy is migrated (this branch's indexes), vacuumed and
// analyzed as autovacuum leaves a table in service (--analyze-only: statistics only), and dropped.
//
// The peer of each list page is the plain-SQL way the lists used before: the same SELECT with
// OFFSET, and an exact count(*) of the filter, run on the same pool in the same run, interleaved.
// A middle page (and the feed's page 2,000, the log's page 10,000) is asked for as the console
// asks for it from a page it shows: the next page with the cursor of the page before it; a page
// two ahead with the next cursor of the page shown and one page skipped (the same request a
// reload of that page's URL makes); the "•••" jump five back with the previous cursor and four
// skipped. And as a page number typed in without a cursor, which still counts from the start
// (or from the end, when nearer). The last page is the one the first page's total points at.
// The dashboard's metrics and the reports have as peer the sums they ran per request before the
// report-totals projection (report-peers.ts): only those statements, not the whole answer.

const TARGET_P95_MS = 30;
const PAGE_SIZE = 50;

const { values } = parseArgs({
  options: {
    from: { type: 'string', default: 'large' },
    samples: { type: 'string', default: '15' },
    /** Only the cases whose name contains this. */
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    /** Statistics only, no VACUUM: as the copy came (a server without autovacuum; no visibility map). */
    'analyze-only': { type: 'boolean', default: false },
  },
});
const samples = Number(values.samples);
if (!Number.isInteger(samples) || samples < 2) throw new Error('--samples must be a whole number of at least 2');
const run = startRun('reads', { from: values.from, samples, only: values.only, keep: values.keep, analyzeOnly: values['analyze-only'] });

/** A list as the bench asks for it: its path, its SQL for the peer, and its query's schema (the API's defaults). */
type ListUnderTest = { name: string; path: string; sqlOf?: (query: never) => ListSql; schema?: z.ZodType };

type Case = {
  endpoint: string;
  name: string;
  url: string;
  /** The same page the plain way: OFFSET and an exact count. */
  peer?: { list: ListSql; offset: number };
  /** Another case's peer: the statements it used to run (the reports' and the dashboard's sums per request). */
  peerRun?: () => Promise<unknown>;
};

type Figures = { p50: number; p95: number };

async function main() {
  const name = `bench_reads_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const source = values.from;
  const exists = await adminQuery('SELECT 1 FROM pg_database WHERE datname = $1', [source]);
  if (!exists.rowCount) {
    throw new Error(
      `No database "${source}" on ${serverUrl}: restore the large history into it (pg_restore -d ${source} /work/wt/large.dump) or seed one (npm run ops -- seed --scale large)`,
    );
  }
  console.log(`Copying "${source}" into ${name}...`);
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${source}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const config = { ...readConfig({}), billingSchedule: null, redisUrl: undefined };
  let api: ApiServer | undefined;
  try {
    await migrateReadModel(databaseUrl);
    api = await createApiServer({ config, databaseUrl, sessionKey: randomBytes(32), queuePrefix: name });
    const server = api;
    const pool = server.pool;
    // What autovacuum does to tables of this size in service (as api/test/invoices.api.test.ts
    // does): statistics, and the visibility map, without which no scan is index-only (a page
    // number typed deep into the invoices skips its rows through their index alone). The copy's
    // source may come from a server where autovacuum is off; --analyze-only measures it as it is.
    const settling = performance.now();
    await pool.query(values['analyze-only'] ? sql.unsafe`ANALYZE` : sql.unsafe`VACUUM (ANALYZE)`);
    // The copy and its vacuum leave about a gigabyte of WAL behind: written out now, not by
    // checkpoints running through the first cases (the invoices' searches, timed while the server
    // flushed, came out 30-45 ms p95 where they take 23-25 ms; the server's log showed a
    // checkpoint every 1-5 s during them).
    await pool.query(sql.unsafe`CHECKPOINT`);
    console.log(
      `${values['analyze-only'] ? 'ANALYZE' : 'VACUUM (ANALYZE)'} and CHECKPOINT of the copy: ${((performance.now() - settling) / 1000).toFixed(1)} s`,
    );
    const version = await pool.oneFirst(sql.unsafe`SELECT current_setting('server_version')`);
    const events = await pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int8 AS n FROM event_store.events`);
    console.log(
      `Machine: ${machine()}, ` + `PostgreSQL ${String(version)}; ${events.toLocaleString('en-US')} events; load average (1/5/15 min) at start ${load()}`,
    );
    run.environment.postgres = String(version);

    // A history restored from a dump into another server is ahead of that server's transaction
    // counter, and the store orders events by the appending transaction's id: the sign-in's own
    // events would land behind it and never be read. Spend ids (one per subtransaction) up to it.
    const gap = await pool.oneFirst(sql.type(z.object({ gap: z.number() }))`
      SELECT (coalesce((SELECT max(transaction_id)::text::int8 FROM event_store.events), 0) - txid_current())::int8 AS gap`);
    if (gap > 0) {
      console.log(`Moving the server's transaction counter ${gap.toLocaleString('en-US')} ids ahead, past the restored history...`);
      await pool.query(sql.unsafe`CREATE TABLE bench_spent_ids (n int)`);
      await pool.query(sql.unsafe`DO $$ BEGIN FOR i IN 1..${sql.literalValue(String(gap + 10))} LOOP
        BEGIN INSERT INTO bench_spent_ids VALUES (i); EXCEPTION WHEN others THEN NULL; END; END LOOP; END $$`);
      await pool.query(sql.unsafe`DROP TABLE bench_spent_ids`);
    }

    // A dump made of a rebuilt read model may hold no checkpoints: its tables show the whole history.
    const checkpoints = await pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int8 AS n FROM projection_checkpoints`);
    if (checkpoints === 0) {
      console.log('The read model has no checkpoints: marking it caught up with the history it was built from');
      for (const projection of readModelProjections)
        await pool.query(sql.unsafe`
          INSERT INTO projection_checkpoints (name, position_hi, position_lo, updated_at)
          SELECT ${projection.name}, transaction_id::text::numeric, global_position, now() FROM event_store.events
          ORDER BY transaction_id DESC, global_position DESC LIMIT 1`);
    }

    // An owner, signed in; only the read model's projections catch up with the registration.
    const ctx = { store: server.store, pool, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    const password = 'bench reads password';
    const email = `bench-${randomUUID().slice(0, 8)}@staff.test`;
    const { position } = await registerStaff(ctx, { email, firstName: 'Bench', lastName: 'Owner', role: 'owner', password });
    if (position) await catchUpTo(pool, server.store, readModelProjections, position, 120_000);
    const login = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    if (login.statusCode !== 200) throw new Error(`sign-in answered ${login.statusCode}: ${login.body}`);
    const cookie = sessionCookie(login.headers['set-cookie']);
    const get = async (path: string) => {
      const response = await server.app.inject({ method: 'GET', url: path, headers: { cookie } });
      if (response.statusCode !== 200) throw new Error(`GET ${path} answered ${response.statusCode}: ${response.body}`);
      return response;
    };

    const cases = await casesOf(pool, get);
    const selected = values.only ? cases.filter((c) => `${c.endpoint} ${c.name}`.includes(values.only!)) : cases;
    console.log(`${selected.length} cases, ${samples} samples each (API and peer interleaved), page size ${PAGE_SIZE}, target p95 < ${TARGET_P95_MS} ms\n`);
    console.log(['endpoint', 'case', 'API p50', 'API p95', 'peer p50', 'peer p95', 'p95 ratio', 'target'].join('\t'));
    const misses: string[] = [];
    const measured: Array<Record<string, unknown>> = [];
    let worst = 0;
    for (const c of selected) {
      const apiTimes: number[] = [];
      const peerTimes: number[] = [];
      for (let i = 0; i < samples; i++) {
        let started = performance.now();
        await get(c.url);
        apiTimes.push(performance.now() - started);
        if (c.peer) {
          started = performance.now();
          await peerPage(pool, c.peer.list, c.peer.offset);
          peerTimes.push(performance.now() - started);
        } else if (c.peerRun) {
          started = performance.now();
          await c.peerRun();
          peerTimes.push(performance.now() - started);
        }
      }
      const ours = figures(apiTimes);
      const peer = peerTimes.length ? figures(peerTimes) : undefined;
      worst = Math.max(worst, ours.p95);
      const met = ours.p95 < TARGET_P95_MS;
      if (!met) misses.push(`${c.endpoint} ${c.name}`);
      measured.push({
        endpoint: c.endpoint,
        case: c.name,
        apiP50Ms: ours.p50,
        apiP95Ms: ours.p95,
        peerP50Ms: peer?.p50 ?? null,
        peerP95Ms: peer?.p95 ?? null,
        targetMet: met,
      });
      console.log(
        [
          c.endpoint,
          c.name,
          ms(ours.p50),
          ms(ours.p95),
          peer ? ms(peer.p50) : '-',
          peer ? ms(peer.p95) : '-',
          peer ? (peer.p95 >= ours.p95 ? `${(peer.p95 / ours.p95).toFixed(1)}× faster` : `${(ours.p95 / peer.p95).toFixed(1)}× slower`) : '-',
          met ? 'met' : 'MISSED',
        ].join('\t'),
      );
    }
    console.log(
      `\nWorst p95 ${ms(worst)} (target < ${TARGET_P95_MS} ms): ${misses.length === 0 ? 'every case met' : `${misses.length} missed: ${misses.join('; ')}`}`,
    );
    console.log(`Load average (1/5/15 min) at end ${load()}`);
    run.write({
      history: { events, copiedFrom: source },
      samplesPerCase: samples,
      pageSize: PAGE_SIZE,
      worstApiP95Ms: worst,
      target: { p95UnderMs: TARGET_P95_MS, casesMet: selected.length - misses.length, casesMissed: misses },
      cases: measured,
    });
    if (misses.length) targetMissed();
  } finally {
    await api?.close();
    if (values.keep) console.log(`Kept database ${name}`);
    else await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

function figures(times: number[]): Figures {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** The page the plain way: OFFSET into the order, and the exact count of the filter. */
async function peerPage(pool: DatabasePool, list: ListSql, offset: number) {
  await pool.any(
    sql.unsafe`SELECT ${list.select} FROM ${list.from} WHERE ${list.where} ORDER BY ${orderSql(list.orderBy)} LIMIT ${PAGE_SIZE} OFFSET ${offset}`,
  );
  await pool.oneFirst(sql.unsafe`SELECT count(*)::int8 FROM ${list.from} WHERE ${list.where}`);
}

type Get = (path: string) => Promise<{ headers: Record<string, unknown>; json(): unknown }>;

/** A page asked for by its number alone, as when typed into the URL: the figure of a jump without a cursor. */
const TYPED = 'typed page number (no cursor)';

/**
 * How the console asks for `page` from a page it shows near it (console/src/lib/list-page.ts),
 * which is also the request a reload of that page's URL makes: the next page from the cursor of
 * the page before it; two pages ahead (a page number the pagination offers) from the next cursor
 * of the page shown, one page skipped; and the "•••" jump five pages back from the previous
 * cursor of the page shown, four pages skipped. The pages shown are read once, by number, untimed.
 */
async function jumpsTo(page: number, pages: number, read: (page: number) => Promise<{ headers: Record<string, unknown> }>) {
  const jumps: Array<{ name: string; query: Record<string, string> }> = [];
  const from = async (shown: number, header: string, skip: number, name: string) => {
    if (shown < 1 || shown > pages) return;
    const cursor = (await read(shown)).headers[header];
    if (typeof cursor === 'string') jumps.push({ name, query: skip ? { cursor, skip: String(skip) } : { cursor } });
  };
  await from(page - 1, NEXT_CURSOR_HEADER, 0, 'next');
  await from(page - 2, NEXT_CURSOR_HEADER, 1, 'two ahead of the page shown, or its URL reloaded');
  await from(page + 5, PREV_CURSOR_HEADER, 4, '••• five back from the page shown');
  return jumps;
}

async function casesOf(pool: DatabasePool, get: Get): Promise<Case[]> {
  const one = async (query: ReturnType<typeof sql.unsafe>) => (await pool.maybeOne(query)) as Record<string, string> | null;
  const facility = (await one(sql.unsafe`SELECT id::text AS id FROM facilities ORDER BY name LIMIT 1`))?.id;
  const busyCustomer = (await one(sql.unsafe`SELECT customer_id::text AS id FROM invoices GROUP BY customer_id ORDER BY count(*) DESC LIMIT 1`))?.id;
  const lastName = (await one(sql.unsafe`SELECT lower(last_name) AS id FROM customers ORDER BY created_at LIMIT 1`))?.id ?? 'a';
  const invoiceNumber = (await one(sql.unsafe`SELECT lower(invoice_number) AS id FROM invoices ORDER BY created_at DESC LIMIT 1`))?.id ?? 'inv';
  const unitNumber = (await one(sql.unsafe`SELECT lower(unit_number) AS id FROM units ORDER BY unit_number LIMIT 1`))?.id ?? '1';
  const lockSearch = (await one(sql.unsafe`SELECT lower(left(search_text, 6)) AS id FROM locks ORDER BY id LIMIT 1`))?.id ?? 'l';
  const someone = (await one(sql.unsafe`SELECT lower(first_name) AS id FROM staff ORDER BY created_at LIMIT 1`))?.id ?? 'system';

  const fac: Record<string, string> = facility ? { facilityId: facility } : {};
  const lists: Array<ListUnderTest & { filters: Record<string, Record<string, string>>; sorts: readonly string[] }> = [
    {
      name: 'customers',
      path: '/api/customers',
      sqlOf: customersSql,
      schema: ListCustomersQuery,
      filters: { all: {}, facility: fac, status: { status: 'active' }, search: { search: lastName }, autopay: { autopay: 'on' } },
      sorts: ['name', 'email', 'status', 'createdAt'],
    },
    {
      name: 'units',
      path: '/api/units',
      sqlOf: unitsSql,
      schema: ListUnitsQuery,
      filters: { all: {}, facility: fac, status: { status: 'occupied' }, search: { search: unitNumber } },
      sorts: ['unitNumber', 'size', 'monthlyRate', 'status'],
    },
    {
      name: 'invoices',
      path: '/api/invoices',
      sqlOf: invoicesSql,
      schema: ListInvoicesQuery,
      filters: {
        all: {},
        facility: fac,
        customer: busyCustomer ? { customerId: busyCustomer } : {},
        status: { status: 'paid' },
        'status overdue': { status: 'overdue' },
        search: { search: invoiceNumber.slice(0, 10) },
        'search customer': { search: lastName },
      },
      sorts: ['createdAt', 'invoiceNumber', 'customer', 'amount', 'status', 'dueDate'],
    },
    {
      name: 'leases',
      path: '/api/leases',
      sqlOf: leasesSql,
      schema: ListLeasesQuery,
      filters: { all: {}, facility: fac, status: { status: 'active' }, search: { search: lastName } },
      sorts: ['createdAt', 'startDate', 'customer', 'unit', 'monthlyRate'],
    },
    {
      name: 'locks',
      path: '/api/locks',
      sqlOf: locksSql,
      schema: ListLocksQuery,
      filters: { all: {}, facility: fac, status: { status: 'low_battery' }, search: { search: lockSearch } },
      sorts: ['lockId', 'unit', 'status', 'batteryLevel', 'lastSeen'],
    },
    {
      name: 'messages',
      path: '/api/messages',
      sqlOf: messagesSql,
      schema: ListMessagesQuery,
      filters: { all: {}, facility: fac, search: { search: lastName } },
      sorts: ['createdAt'],
    },
    {
      name: 'reservations',
      path: '/api/reservations',
      sqlOf: reservationsSql,
      schema: ListReservationsQuery,
      filters: { open: {}, facility: fac },
      sorts: ['submittedAt', 'moveInDate', 'customer', 'unit'],
    },
    {
      name: 'waitlist',
      path: '/api/waitlist',
      sqlOf: waitlistSql,
      schema: ListWaitlistQuery,
      filters: { all: {}, facility: fac },
      sorts: ['joinedAt', 'name', 'size'],
    },
    {
      name: 'staff',
      path: '/api/staff',
      sqlOf: staffSql,
      schema: ListStaffQuery,
      filters: { all: {}, active: { status: 'active' } },
      sorts: ['status', 'name'],
    },
    {
      name: 'facilities',
      path: '/api/facilities',
      sqlOf: facilitiesSql,
      schema: ListFacilitiesQuery,
      filters: { all: {}, search: { search: 'storage' } },
      sorts: [],
    },
    { name: 'billing runs', path: '/api/billing-runs', sqlOf: billingRunsSql, schema: ListBillingRunsQuery, filters: { all: {}, facility: fac }, sorts: [] },
    // A list since it is paged (its pages also carry the whole scope's figures, counted apart on the same pool).
    {
      name: 'rent roll',
      path: '/api/reports/rent-roll',
      sqlOf: (q: { facilityId?: string }) => rentRollSql(q.facilityId, { kind: 'today', day: 'today' }),
      schema: RentRollQuery,
      filters: { all: {}, facility: fac },
      sorts: [],
    },
  ];

  const cases: Case[] = [];
  for (const list of lists) {
    if (values.only && !list.name.includes(values.only) && !values.only.startsWith(list.name)) continue;
    const sorts = list.sorts.length ? list.sorts : [undefined];
    for (const [filterName, filter] of Object.entries(list.filters)) {
      for (const sort of sorts) {
        // Every filter in the list's default order; every order on the whole list.
        if (sort !== sorts[0] && filterName !== Object.keys(list.filters)[0]) continue;
        const query: Record<string, string> = { ...filter, ...(sort ? { sort } : {}), pageSize: String(PAGE_SIZE) };
        const label = `${filterName}${sort ? `, by ${sort}` : ''}`;
        const path = (extra: Record<string, string>) => `${list.path}?${new URLSearchParams({ ...query, ...extra })}`;
        const parsed = list.schema?.parse(query) as never;
        const listSql = list.sqlOf?.(parsed);
        const peer = (offset: number) => (listSql ? { list: listSql, offset } : undefined);
        const exact = listSql
          ? await pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int8 AS n FROM ${listSql.from} WHERE ${listSql.where}`)
          : 0;
        const first = await get(path({ page: '1' }));
        cases.push({ endpoint: list.name, name: `${label}: first page`, url: path({ page: '1' }), peer: peer(0) });
        const pages = Math.max(1, Math.ceil(exact / PAGE_SIZE));
        if (pages >= 3) {
          const middle = Math.ceil(pages / 2);
          const at = (page: number) => ({ endpoint: list.name, url: path({ page: String(page) }), peer: peer((page - 1) * PAGE_SIZE) });
          for (const jump of await jumpsTo(middle, pages, (page) => get(path({ page: String(page) }))))
            cases.push({ ...at(middle), name: `${label}: middle page ${middle} (${jump.name})`, url: path({ page: String(middle), ...jump.query }) });
          cases.push({ ...at(middle), name: `${label}: middle page ${middle} (${TYPED})` });
        }
        if (pages >= 2) {
          // The last page as the console reaches it: the one the first page's total points at.
          const shown = Number(first.headers[TOTAL_COUNT_HEADER]);
          const kind = first.headers[TOTAL_ESTIMATED_HEADER] ? 'about ' : first.headers[TOTAL_CAPPED_HEADER] ? 'at least ' : '';
          const last = Math.max(1, Math.ceil(shown / PAGE_SIZE));
          cases.push({
            endpoint: list.name,
            name: `${label}: last page ${last} of ${kind}${shown.toLocaleString('en-US')} (${exact.toLocaleString('en-US')} rows)`,
            url: path({ page: String(last) }),
            peer: peer((pages - 1) * PAGE_SIZE),
          });
        }
      }
    }
  }

  // The activity feed and the audit log (their own paging), an entity's history, the dashboard and the reports.
  const customer = busyCustomer ?? (await one(sql.unsafe`SELECT id::text AS id FROM customers LIMIT 1`))?.id;
  const other = (endpoint: string, caseName: string, url: string) => {
    const [path, query] = url.split('?');
    const peer = reportPeers[path!];
    const peerFacility = new URLSearchParams(query ?? '').get('facilityId') ?? undefined;
    cases.push({ endpoint, name: caseName, url, ...(peer ? { peerRun: () => peer(pool, peerFacility) } : {}) });
  };
  /** A page deep in the feed or the log: as the console jumps to it from a page shown near it, and typed by number. */
  const deepPage = async (endpoint: string, listPath: string, page: number) => {
    const url = (query: Record<string, string>) => `${listPath}?${new URLSearchParams({ pageSize: String(PAGE_SIZE), ...query })}`;
    for (const jump of await jumpsTo(page, Number.POSITIVE_INFINITY, (shown) => get(url({ page: String(shown) }))))
      other(endpoint, `all, page ${page.toLocaleString('en-US')} (${jump.name})`, url({ page: String(page), ...jump.query }));
    other(endpoint, `all, page ${page.toLocaleString('en-US')} (${TYPED})`, url({ page: String(page) }));
  };
  for (const [caseName, q] of Object.entries({
    'all, first page': 'page=1',
    'all, page 100': 'page=100',
    facility: `facilityId=${facility}`,
    customer: `customerId=${customer}`,
    search: `search=${lastName}`,
  }))
    other('activities', caseName, `/api/activities?${q}&pageSize=${PAGE_SIZE}`);
  await deepPage('activities', '/api/activities', 2_000);
  await deepPage('audit log', '/api/audit/events', 10_000);
  for (const [caseName, q] of Object.entries({
    'all, first page': 'page=1',
    'all, page 100': 'page=100',
    type: 'type=payment_received',
    actor: `actor=${someone}`,
    'actor system': 'actor=system',
    facility: `facilityId=${facility}`,
    stream: `stream=customer-${customer}`,
    days: 'from=2025-01-01&to=2025-01-31',
  }))
    other('audit log', caseName, `/api/audit/events?${q}&pageSize=${PAGE_SIZE}`);
  other('history', 'a customer', `/api/history/customer/${customer}`);
  other('dashboard', 'metrics', '/api/dashboard/metrics');
  other('dashboard', 'metrics, facility', `/api/dashboard/metrics?facilityId=${facility}`);
  other('dashboard', 'recent customers', '/api/dashboard/recent-customers');
  for (const report of ['overview', 'aging', 'payments-by-method', 'revenue-by-charge-type']) {
    other('reports', report, `/api/reports/${report}`);
    other('reports', `${report}, facility`, `/api/reports/${report}?facilityId=${facility}`);
  }
  return cases;
}

await main();
