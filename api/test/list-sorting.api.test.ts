// Every staff list sorts on the server by the columns its contract names, in either direction,
// with the row's key breaking ties (so a page boundary never repeats or skips a row), and filters
// by status where it has one. Checked on the demo data plus a few reservations, waiting renters
// and staff members, from the answers alone: each neighbouring pair of rows must be in order.

import { activitySorting } from '@storage/contracts/activities';
import { customerSorting } from '@storage/contracts/customers';
import { CustomerStatus, InvoiceStatus, LockStatus, StaffRole, UnitStatus, unitSizes } from '@storage/contracts/enums';
import { invoiceSorting } from '@storage/contracts/invoices';
import { leaseSorting } from '@storage/contracts/leases';
import { lockSorting } from '@storage/contracts/locks';
import { ReservationStatus, reservationSorting, waitlistSorting } from '@storage/contracts/reservations';
import type { ListSorting, SortOrder } from '@storage/contracts/sorting';
import { StaffStatus, staffSorting } from '@storage/contracts/staff';
import { unitSorting } from '@storage/contracts/units';
import { reserveOnline } from '@storage/testing/online-reservations';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// biome-ignore lint/suspicious/noExplicitAny: rows are read as the JSON answers them
type Row = Record<string, any>;
type Key = Array<string | number | null>;

/** Text as the lists sort it: regardless of case, by code point. */
const text = (value: string | null | undefined): string | null => (value == null ? null : value.toLowerCase());
/** `2025-01-31 09:00:00.12+00` (a timestamptz as text) or ISO-8601, as milliseconds. */
const time = (value: string): number => Date.parse(value.replace(' ', 'T').replace(/\+00$/, 'Z'));
const money = (value: string): number => Number(value);
const place = (values: readonly string[], value: string | null): number | null => (value === null ? null : values.indexOf(value));
const staffName = (row: Row) => text([row.firstName, row.lastName].filter((part) => part != null).join(' ') || row.email);

interface ListUnderTest {
  name: string;
  path: string;
  sorting: ListSorting<string>;
  /** For each sort column: what the rows are ordered by, as the answer shows it. */
  keys: Record<string, (row: Row) => Key>;
  /** Equal keys are ordered by something the answer does not show (so not checked by id). */
  hiddenTiebreak?: boolean;
  /** Rows come in groups first, A→Z whatever the order (units under their facility's building). */
  group?: (row: Row) => string;
}

const lists: ListUnderTest[] = [
  {
    name: 'customers',
    path: '/api/customers',
    sorting: customerSorting,
    keys: {
      name: (r) => [text(r.lastName), text(r.firstName)],
      email: (r) => [text(r.email)],
      status: (r) => [place(CustomerStatus.options, r.status), text(r.lastName), text(r.firstName)],
      createdAt: (r) => [r.createdAt],
    },
  },
  {
    name: 'units',
    path: '/api/units',
    sorting: unitSorting,
    // Facility by facility (its id, byte order), then building by building.
    group: (r) => `${r.facilityId ?? 'none'} ${r.building}`,
    keys: {
      unitNumber: (r) => [text(r.unitNumber)],
      size: (r) => [place(unitSizes, r.size), text(r.unitNumber)],
      monthlyRate: (r) => [money(r.monthlyRate), text(r.unitNumber)],
      status: (r) => [place(UnitStatus.options, r.status), text(r.unitNumber)],
    },
  },
  {
    name: 'leases',
    path: '/api/leases',
    sorting: leaseSorting,
    keys: {
      createdAt: (r) => [r.createdAt],
      startDate: (r) => [r.startDate],
      customer: (r) => [text(r.customer.lastName), text(r.customer.firstName)],
      unit: (r) => [text(r.unit.unitNumber)],
      monthlyRate: (r) => [money(r.monthlyRate)],
    },
  },
  {
    name: 'locks',
    path: '/api/locks',
    sorting: lockSorting,
    keys: {
      lockId: (r) => [text(r.lockId)],
      unit: (r) => [text(r.unit?.unitNumber), text(r.lockId)],
      status: (r) => [place(LockStatus.options, r.status), text(r.lockId)],
      batteryLevel: (r) => [r.batteryLevel, text(r.lockId)],
      lastSeen: (r) => [r.lastSeen, text(r.lockId)],
    },
  },
  {
    name: 'invoices',
    path: '/api/invoices',
    sorting: invoiceSorting,
    keys: {
      invoiceNumber: (r) => [text(r.invoiceNumber)],
      customer: (r) => [text(r.customer.lastName), text(r.customer.firstName)],
      amount: (r) => [money(r.amount)],
      status: (r) => [place(InvoiceStatus.options, r.status), r.dueDate],
      dueDate: (r) => [r.dueDate],
      createdAt: (r) => [r.createdAt],
    },
  },
  {
    name: 'activities',
    path: '/api/activities',
    sorting: activitySorting,
    // Entries of one instant keep the order they were recorded in.
    hiddenTiebreak: true,
    keys: { createdAt: (r) => [r.createdAt] },
  },
  {
    name: 'reservations',
    path: '/api/reservations',
    sorting: reservationSorting,
    keys: {
      submittedAt: (r) => [time(r.submittedAt)],
      moveInDate: (r) => [r.moveInDate, time(r.submittedAt)],
      customer: (r) => [text(r.customerName), time(r.submittedAt)],
      unit: (r) => [text(r.unitNumber), time(r.submittedAt)],
    },
  },
  {
    name: 'waiting renters',
    path: '/api/waitlist',
    sorting: waitlistSorting,
    keys: {
      joinedAt: (r) => [time(r.joinedAt)],
      name: (r) => [text(r.lastName), text(r.firstName)],
      size: (r) => [place(unitSizes, r.size), time(r.joinedAt)],
    },
  },
  {
    name: 'staff',
    path: '/api/staff',
    sorting: staffSorting,
    keys: {
      name: (r) => [staffName(r)],
      email: (r) => [text(r.email)],
      role: (r) => [place(StaffRole.options, r.role), staffName(r)],
      status: (r) => [place(StaffStatus.options, r.status), staffName(r)],
      createdAt: (r) => [r.createdAt],
    },
  },
];

/**
 * Where `a` belongs against `b` in that order: negative before, positive after, 0 tied. Missing
 * values (null) come last in either direction; tied keys fall to the id, unless `ids` is false.
 */
function compare(a: { key: Key; id: string }, b: { key: Key; id: string }, order: SortOrder, ids = true): number {
  const direction = order === 'asc' ? 1 : -1;
  for (let i = 0; i < a.key.length; i++) {
    const x = a.key[i]!;
    const y = b.key[i]!;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * direction;
  }
  if (!ids) return 0;
  return (a.id < b.id ? -1 : 1) * direction;
}

describe('sorted and filtered staff lists', () => {
  let platform: TestPlatform;
  /** Online reservations are confirmed from the link mailed to the email typed. */
  let smtp: TestSmtpServer;
  let cookie: string;
  const get = (url: string) => platform.api.app.inject({ method: 'GET', url, headers: { cookie } });

  /** Every row of the list in that order, a page of 200 at a time. */
  async function everyRow(path: string, params: Record<string, string>): Promise<Row[]> {
    const rows: Row[] = [];
    for (let page = 1; ; page++) {
      const response = await get(`${path}?${new URLSearchParams({ ...params, page: String(page), pageSize: '200' })}`);
      expect(response.statusCode, `${path} ${JSON.stringify(params)}: ${response.body}`).toBe(200);
      const answer: Row[] = response.json();
      rows.push(...answer);
      const total = Number(response.headers['x-total-count'] ?? rows.length);
      if (rows.length >= total || answer.length === 0) return rows;
    }
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    platform = await startTestPlatform({ seedDemo: true, config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}` } });
    cookie = await platform.signIn();
    const post = (url: string, payload: object, remoteAddress = '127.0.0.1') =>
      platform.api.app.inject({ method: 'POST', url, payload, remoteAddress, headers: { cookie } });

    // Online reservations on available demo units (two renters share a name), one cancelled.
    const Unit = z.object({ id: z.string() });
    const units = await platform.api.pool.any(sql.type(Unit)`SELECT id::text FROM units WHERE status = 'available' ORDER BY unit_number DESC LIMIT 5`);
    const renters = ['Zed Young', 'Amy Adams', 'amy Adams', 'Bo Brown', 'Cy Clark'];
    const reservationIds: string[] = [];
    for (const [i, unit] of units.entries()) {
      const [firstName, lastName] = renters[i]!.split(' ');
      const day = new Date(Date.now() + ((i * 3) % 4) * 86_400_000).toISOString().slice(0, 10);
      const submitted = await reserveOnline(
        platform.api.app,
        smtp,
        {
          unitId: unit.id,
          customerData: { firstName, lastName, email: `sorting-${i}-${Date.now()}@example.com`, phone: `555-02${i}0`, moveInDate: day },
        },
        `10.9.0.${i + 1}`,
      );
      expect(submitted.statusCode, submitted.body).toBe(200);
      reservationIds.push(submitted.json().reservationId);
    }
    expect((await post(`/api/reservations/${reservationIds[4]}/cancel`, {})).statusCode).toBe(204);

    // Renters waiting, for a size or for any.
    for (const [i, size] of (['10x10', null, '5x5', '10x10', null, '20x30'] as const).entries()) {
      const joined = await post(
        '/api/public/waitlist',
        { firstName: `W${i % 3}`, lastName: i % 2 ? 'Waiter' : 'Able', email: `wait-${i}-${Date.now()}@example.com`, phone: '555-0300', size },
        `10.9.1.${i + 1}`,
      );
      expect(joined.statusCode, joined.body).toBe(201);
    }

    // Staff of every role, one deactivated, and one known by email only.
    for (const role of StaffRole.options) await platform.createStaff(role);
    const nameless = await post('/api/staff', { email: `aaa-${Date.now()}@staff.test`, role: 'clerk', password: 'correct horse battery' });
    expect(nameless.statusCode, nameless.body).toBe(201);
    expect((await post(`/api/staff/${nameless.json().id}/deactivate`, {})).statusCode).toBe(200);
  });
  afterAll(async () => {
    await platform?.close();
    await smtp?.close();
  });

  describe.each(lists)('$name', (list) => {
    const columns = Object.keys(list.sorting.columns);

    it('declares a check for each sortable column, and no other', () => {
      expect(Object.keys(list.keys).sort()).toEqual([...columns].sort());
    });

    it.each(columns)('sorts by %s in both directions, ties broken by the row key, and descending is ascending reversed', async (column) => {
      const ordered: Record<SortOrder, Row[]> = { asc: [], desc: [] };
      for (const order of ['asc', 'desc'] as const) {
        const rows = await everyRow(list.path, { sort: column, order });
        expect(rows.length, `${list.name} has rows to sort`).toBeGreaterThan(2);
        const at = (row: Row) => ({ key: list.keys[column]!(row), id: row.id as string });
        for (let i = 1; i < rows.length; i++) {
          const [a, b] = [rows[i - 1]!, rows[i]!];
          const where = `${list.name} by ${column} ${order}, rows ${i - 1} and ${i}: ${JSON.stringify(at(a))} then ${JSON.stringify(at(b))}`;
          if (list.group && list.group(a) !== list.group(b)) {
            expect(list.group(a) < list.group(b), where).toBe(true);
            continue;
          }
          expect(compare(at(a), at(b), order, !list.hiddenTiebreak), where).toBeLessThanOrEqual(list.hiddenTiebreak ? 0 : -1);
        }
        ordered[order] = rows;
      }
      const hasMissing = ordered.asc.some((row) => list.keys[column]!(row).includes(null));
      if (!hasMissing && !list.group && !list.hiddenTiebreak) {
        expect(ordered.desc.map((r) => r.id)).toEqual(ordered.asc.map((r) => r.id).reverse());
      }
    });

    it('pages through a sort without repeating or skipping a row', async () => {
      const column = columns.at(-1)!;
      const all = await everyRow(list.path, { sort: column, order: 'asc' });
      const paged: string[] = [];
      const pageSize = 3;
      for (let page = 1; page <= Math.min(6, Math.ceil(all.length / pageSize)); page++) {
        const response = await get(`${list.path}?${new URLSearchParams({ sort: column, order: 'asc', page: String(page), pageSize: String(pageSize) })}`);
        paged.push(...response.json().map((row: Row) => row.id));
      }
      expect(paged).toEqual(all.slice(0, paged.length).map((row) => row.id));
      // Asked twice, the same order.
      expect((await everyRow(list.path, { sort: column, order: 'asc' })).map((r) => r.id)).toEqual(all.map((r) => r.id));
    });

    // The activity feed pages by number until its own paging (h-audit's) follows the cursor contract.
    it.runIf(list.path !== '/api/activities').each(columns)(
      'walks the order by %s by cursor, forward to the end and back to the start, across ties and missing values, never skipping or repeating a row',
      async (column) => {
        for (const order of ['asc', 'desc'] as const) {
          const all = (await everyRow(list.path, { sort: column, order })).map((row) => row.id as string);
          const pageSize = 4;
          const ask = async (page: number, cursor: string | undefined) => {
            const params = new URLSearchParams({ sort: column, order, page: String(page), pageSize: String(pageSize), ...(cursor ? { cursor } : {}) });
            const response = await get(`${list.path}?${params}`);
            expect(response.statusCode, response.body).toBe(200);
            expect(response.headers['x-total-count'], `${list.name} by ${column} ${order}: the same exact total on every page`).toBe(String(all.length));
            const next = response.headers['x-next-cursor'];
            const prev = response.headers['x-prev-cursor'];
            return {
              ids: response.json().map((row: Row) => row.id as string),
              next: typeof next === 'string' ? next : undefined,
              prev: typeof prev === 'string' ? prev : undefined,
            };
          };
          const forward: string[] = [];
          let page = 1;
          let at = await ask(page, undefined);
          expect(at.prev, 'no page before the first').toBeUndefined();
          forward.push(...at.ids);
          while (at.next) {
            at = await ask(++page, at.next);
            forward.push(...at.ids);
          }
          expect(forward, `${list.name} by ${column} ${order}, forward`).toEqual(all);
          const backward: string[] = [...at.ids];
          while (at.prev) {
            at = await ask(--page, at.prev);
            expect(at.ids, 'a page read backwards is still full').toHaveLength(pageSize);
            backward.unshift(...at.ids);
          }
          expect(page, 'back at the first page').toBe(1);
          expect(backward, `${list.name} by ${column} ${order}, backward`).toEqual(all);
        }
      },
    );

    it('is in its default order when the request names none, and a column alone sorts in its own direction', async () => {
      const { sort, order } = list.sorting.byDefault;
      expect((await everyRow(list.path, {})).map((r) => r.id)).toEqual((await everyRow(list.path, { sort, order })).map((r) => r.id));
      for (const column of columns) {
        const own = list.sorting.columns[column]!;
        expect(
          (await everyRow(list.path, { sort: column })).map((r) => r.id),
          column,
        ).toEqual((await everyRow(list.path, { sort: column, order: own })).map((r) => r.id));
      }
    });

    it('refuses an unknown column or direction with 400 naming the field', async () => {
      const badSort = await get(`${list.path}?sort=password`);
      expect(badSort.statusCode).toBe(400);
      expect(badSort.json().message).toBe(`sort: must be one of: ${columns.join(', ')}`);
      const badOrder = await get(`${list.path}?order=sideways`);
      expect(badOrder.statusCode).toBe(400);
      expect(badOrder.json().message).toBe('order: must be one of: asc, desc');
      const sqlInjection = await get(`${list.path}?${new URLSearchParams({ sort: 'id; DROP TABLE customers' })}`);
      expect(sqlInjection.statusCode).toBe(400);
    });
  });

  describe('cursors', () => {
    const cursorOf = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64url');

    it('refuses a cursor the list did not write, one written for another order, and one whose keys are not of their type, with 400 naming cursor', async () => {
      const first = await get('/api/customers?pageSize=2');
      const next = String(first.headers['x-next-cursor']);
      expect(next).toMatch(/^[A-Za-z0-9_-]+$/);
      expect((await get(`/api/customers?pageSize=2&page=2&cursor=${next}`)).statusCode).toBe(200);
      const refused = [
        'not*base64',
        cursorOf({ hello: 'world' }),
        'e30',
        // Another order's cursor: its keys mean something else.
        String((await get('/api/customers?pageSize=2&sort=email')).headers['x-next-cursor']),
        cursorOf({ o: 'createdAt.desc', d: 'a', k: ['not a time', 'not a uuid'] }),
        cursorOf({ o: 'createdAt.desc', d: 'a', k: ['2026-01-01 00:00:00+00'] }),
      ];
      for (const cursor of refused) {
        const answer = await get(`/api/customers?pageSize=2&page=2&cursor=${encodeURIComponent(cursor)}`);
        expect(answer.statusCode, `${cursor}: ${answer.body}`).toBe(400);
        expect(answer.json().field, cursor).toBe('cursor');
        expect(answer.json().message, cursor).toMatch(/^cursor: /);
      }
    });

    it('reads the last page by number: the same rows as walking there, with a cursor back and none forward', async () => {
      const all = await everyRow('/api/units', { sort: 'unitNumber' });
      const pageSize = 5;
      const last = Math.ceil(all.length / pageSize);
      const answer = await get(`/api/units?sort=unitNumber&pageSize=${pageSize}&page=${last}`);
      expect(answer.statusCode).toBe(200);
      expect(answer.json().map((row: Row) => row.id)).toEqual(all.slice((last - 1) * pageSize).map((row) => row.id));
      expect(answer.headers['x-next-cursor']).toBeUndefined();
      expect(answer.headers['x-prev-cursor']).toBeTruthy();
    });
  });

  describe('jumps near a page shown: its cursor and `skip` whole pages', () => {
    // Lists whose sort key ties across page boundaries (statuses; events and entries of one instant).
    const tied = [
      { path: '/api/customers', sort: 'status', field: 'status' },
      { path: '/api/invoices', sort: 'status', field: 'status' },
      { path: '/api/audit/events', sort: 'occurredAt', field: 'occurredAt' },
      { path: '/api/activities', sort: 'createdAt', field: 'createdAt' },
    ];
    const pageSize = 3;

    it.each(tied)(
      '$path by $sort: a page 1 to 5 pages on from the one shown, forward and back, is the page by number, and its own cursors lead on',
      async ({ path, sort, field }) => {
        for (const order of ['asc', 'desc'] as const) {
          const all = await everyRow(path, { sort, order });
          const ids = all.map((row) => row.id as string);
          const pages = Math.ceil(ids.length / pageSize);
          expect(pages, `${path} has pages to jump between`).toBeGreaterThan(12);
          const boundaryTies = Array.from({ length: pages - 1 }, (_, i) => (i + 1) * pageSize).filter((at) => all[at - 1]![field] === all[at]![field]);
          expect(boundaryTies.length, `${path} by ${sort}: rows tied on ${field} across a page boundary`).toBeGreaterThan(0);
          const byNumber = (page: number) => ids.slice((page - 1) * pageSize, page * pageSize);
          const ask = async (page: number, paging: Record<string, string> = {}) => {
            const response = await get(`${path}?${new URLSearchParams({ sort, order, page: String(page), pageSize: String(pageSize), ...paging })}`);
            expect(response.statusCode, response.body).toBe(200);
            const header = (name: string) => (typeof response.headers[name] === 'string' ? (response.headers[name] as string) : undefined);
            return { ids: response.json().map((row: Row) => row.id as string), next: header('x-next-cursor'), prev: header('x-prev-cursor') };
          };
          for (const shownPage of [2, 7, pages - 1]) {
            const shown = await ask(shownPage);
            expect(shown.ids).toEqual(byNumber(shownPage));
            for (const skip of [0, 1, 3, 4]) {
              const ahead = shownPage + 1 + skip;
              if (ahead <= pages) {
                const where = `${path} by ${sort} ${order}: page ${ahead} from page ${shownPage}'s next cursor, skip ${skip}`;
                const jumped = await ask(ahead, { cursor: shown.next!, skip: String(skip) });
                expect(jumped.ids, where).toEqual(byNumber(ahead));
                expect((await ask(ahead - 1, { cursor: jumped.prev! })).ids, `${where}, then back`).toEqual(byNumber(ahead - 1));
                if (ahead < pages) expect((await ask(ahead + 1, { cursor: jumped.next! })).ids, `${where}, then on`).toEqual(byNumber(ahead + 1));
                else expect(jumped.next, `${where}: the last page has no next`).toBeUndefined();
              }
              const behind = shownPage - 1 - skip;
              if (behind >= 1) {
                const where = `${path} by ${sort} ${order}: page ${behind} from page ${shownPage}'s previous cursor, skip ${skip}`;
                const jumped = await ask(behind, { cursor: shown.prev!, skip: String(skip) });
                expect(jumped.ids, where).toEqual(byNumber(behind));
                expect((await ask(behind + 1, { cursor: jumped.next! })).ids, `${where}, then on`).toEqual(byNumber(behind + 1));
                if (behind > 1) expect((await ask(behind - 1, { cursor: jumped.prev! })).ids, `${where}, then back`).toEqual(byNumber(behind - 1));
                else expect(jumped.prev, `${where}: the first page has no previous`).toBeUndefined();
              }
            }
          }
        }
      },
    );

    it('refuses a skip that is not a whole number from 0 to 20, or one without a cursor, with 400 naming skip', async () => {
      const next = String((await get('/api/customers?pageSize=2')).headers['x-next-cursor']);
      expect((await get(`/api/customers?pageSize=2&page=4&cursor=${next}&skip=2`)).statusCode).toBe(200);
      const refused: Array<[string, RegExp]> = [
        [`cursor=${next}&skip=-1`, /^skip: must be at least 0$/],
        [`cursor=${next}&skip=1.5`, /^skip: must be a whole number$/],
        [`cursor=${next}&skip=two`, /^skip: /],
        [`cursor=${next}&skip=21`, /^skip: must be at most 20$/],
        ['skip=2', /^skip: is read from a cursor/],
      ];
      for (const path of ['/api/customers', '/api/audit/events', '/api/activities']) {
        const cursor = path === '/api/customers' ? next : String((await get(`${path}?pageSize=2`)).headers['x-next-cursor']);
        for (const [query, message] of refused) {
          const answer = await get(`${path}?pageSize=2&page=4&${query.replace(next, cursor)}`);
          expect(answer.statusCode, `${path}?${query}: ${answer.body}`).toBe(400);
          expect(answer.json().field, query).toBe('skip');
          expect(answer.json().message, query).toMatch(message);
        }
      }
    });
  });

  describe('filters by status', () => {
    const filtered: Array<{ path: string; statuses: readonly string[] }> = [
      { path: '/api/customers', statuses: CustomerStatus.options },
      { path: '/api/units', statuses: UnitStatus.options },
      { path: '/api/locks', statuses: LockStatus.options },
      { path: '/api/invoices', statuses: InvoiceStatus.options },
      { path: '/api/staff', statuses: StaffStatus.options },
    ];

    it.each(filtered)('$path: each status keeps exactly the rows of that status, and a status it does not have is refused', async ({ path, statuses }) => {
      const all = await everyRow(path, {});
      const found = new Set<string>();
      for (const status of statuses) {
        // The same order as the whole list, less the rows of other statuses.
        const rows = await everyRow(path, { status });
        expect(
          rows.map((r) => r.id),
          `${path} ${status}`,
        ).toEqual(all.filter((r) => r.status === status).map((r) => r.id));
        if (rows.length > 0) found.add(status);
      }
      expect(found.size, `${path} has rows of more than one status`).toBeGreaterThan(1);
      const bad = await get(`${path}?status=archived`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^status: must be one of: /);
    });

    it('reservations: the open ones by default, or those of the status asked', async () => {
      const open = await everyRow('/api/reservations', {});
      expect(open.map((r) => r.status)).toEqual(open.map(() => 'submitted'));
      expect(open).toHaveLength(4);
      const cancelled = await everyRow('/api/reservations', { status: 'cancelled' });
      expect(cancelled.map((r) => r.status)).toEqual(['cancelled']);
      expect(await everyRow('/api/reservations', { status: 'converted' })).toEqual([]);
      const bad = await get('/api/reservations?status=open');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(`status: must be one of: ${ReservationStatus.options.join(', ')}`);
    });
  });
});
