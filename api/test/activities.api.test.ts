import { archiveCustomer, updateCustomer } from '@storage/domain/customers/commands';
import { cancelInvoice, markInvoiceOverdue } from '@storage/domain/invoices/commands';
import { endLease } from '@storage/domain/leases/commands';
import { assignLock, changeLockStatus, grantAccess, installLock } from '@storage/domain/locks/commands';
import { changeUnitStatus } from '@storage/domain/units/commands';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { historyWriter } from './history.ts';

type Listed = {
  id: string;
  type: string;
  description: string;
  createdAt: string;
  metadata: Record<string, unknown>;
  customer: { firstName: string; lastName: string; email: string } | null;
};

describe('activities API', () => {
  let platform: TestPlatform;
  let cookie: string;
  let history: ReturnType<typeof historyWriter>;
  let harbor: string;
  let oakHill: string;
  let marie: string;
  const inject = (url: string) => platform.api.app.inject({ method: 'GET', url, headers: { cookie } });
  const list = async (query = '') => {
    const response = await inject(`/api/activities${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return { items: response.json() as Listed[], total: Number(response.headers['x-total-count']) };
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn();
    history = historyWriter(platform);
    const t = (minutes: number) => new Date(Date.now() - (120 - minutes) * 60_000);

    harbor = await history.facility(t(0), 'Harbor Activity');
    oakHill = await history.facility(t(0), 'Oak Hill Activity');
    const unit = await history.unit(t(1), harbor, 'HA-101', 'A');
    const spare = await history.unit(t(1), harbor, 'HA-102', 'A');
    marie = await history.customer(t(2), harbor, { firstName: 'Marie', lastName: 'Curie', email: 'marie.activity@example.com' });
    const lease = await history.lease(t(3), marie, unit, '120.00');
    const paid = await history.sentInvoice(t(4), marie, '120.00');
    await history.pay(t(5), paid, '120.00');
    const late = await history.sentInvoice(t(6), marie, '45.50', '2020-01-01');
    await markInvoiceOverdue(history.at(t(7)), late);
    // One instant for the invoice and its cancellation: t() read twice in one call (the context's
    // argument first) could put the cancellation a millisecond before the invoice it cancels.
    const cancelledAt = t(8);
    await cancelInvoice(history.at(cancelledAt), await history.sentInvoice(cancelledAt, marie, '10.00'));
    const lock = '5b0a4c1e-7f7b-4c55-9d4b-0123456789ab';
    await installLock(history.at(t(9)), { serial: 'NK-ACT-1', unitId: null, status: 'active', batteryLevel: 100, firmwareVersion: '2.4.0' }, lock);
    await assignLock(history.at(t(10)), lock, unit);
    await grantAccess(history.at(t(11)), lock, { customerId: marie, method: 'mobile_app' });
    await changeLockStatus(history.at(t(12)), lock, 'inactive');
    await endLease(history.at(t(13)), lease, new Date().toISOString().slice(0, 10));
    await assignLock(history.at(t(14)), lock, null);
    await changeUnitStatus(history.at(t(15)), spare, 'maintenance', 'Roll-up door repair');
    await updateCustomer(history.at(t(16)), marie, { phone: '555-0142' });
    const alan = await history.customer(t(17), oakHill, { firstName: 'Alan', lastName: 'Turing', email: 'alan.activity@example.com' });
    await archiveCustomer(history.at(t(18)), alan);
    await history.settle();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 when signed out', async () => {
    for (const url of ['/api/activities', '/api/activities/counts']) {
      expect((await platform.api.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });

  it('tells every event a manager follows, newest first, in words, with the customer', async () => {
    const { items, total } = await list();
    expect(total).toBe(items.length);
    expect(items.map((a) => a.type)).toEqual([
      'customer_archived',
      'customer_added',
      'customer_updated',
      'unit_maintenance',
      'lock_assigned',
      'lease_ended',
      'lock_status_changed',
      'access_granted',
      'lock_assigned',
      'lock_installed',
      'invoice_cancelled',
      'invoice_sent',
      'invoice_generated',
      'invoice_overdue',
      'invoice_sent',
      'invoice_generated',
      'payment_received',
      'invoice_sent',
      'invoice_generated',
      'lease_started',
      'customer_added',
    ]);
    const byType = (type: string) => items.find((a) => a.type === type)!;
    expect(byType('payment_received')).toMatchObject({
      description: expect.stringMatching(/^Payment of \$120\.00 received for INV-/),
      metadata: { amount: '120.00', method: 'Cash', paidDate: expect.any(String) },
      customer: { firstName: 'Marie', lastName: 'Curie', email: 'marie.activity@example.com' },
    });
    expect(byType('invoice_overdue').description).toMatch(/^Invoice INV-\S+ for \$45\.50 is overdue$/);
    expect(byType('invoice_cancelled').description).toMatch(/cancelled$/);
    expect(byType('lease_ended').description).toBe('Lease ended for unit HA-101');
    expect(items.filter((a) => a.type === 'lock_assigned').map((a) => a.description)).toEqual([
      'Smart lock NK-ACT-1 removed from unit HA-101',
      'Smart lock NK-ACT-1 assigned to unit HA-101',
    ]);
    expect(byType('customer_updated').description).toBe('Customer Marie Curie updated (phone)');
    expect(byType('customer_archived')).toMatchObject({ description: 'Customer Alan Turing archived', customer: { firstName: 'Alan' } });
    expect(byType('unit_maintenance').metadata).toMatchObject({ unitNumber: 'HA-102', reason: 'Roll-up door repair' });
    expect(byType('lock_installed').customer).toBeNull();
  });

  it('searches the description and the customer name and email', async () => {
    expect((await list('?search=CURIE')).total).toBe(14);
    expect((await list('?search=alan.activity@')).items.map((a) => a.type)).toEqual(['customer_archived', 'customer_added']);
    expect((await list('?search=ha-102')).items.map((a) => a.type)).toEqual(['unit_maintenance']);
    expect((await list('?search=%25')).total).toBe(0);
  });

  it('finds a customer by a new name after a rename', async () => {
    expect((await list('?search=sklodowska')).total).toBe(0);
    await updateCustomer(history.at(new Date()), marie, { lastName: 'Sklodowska' });
    await history.settle();
    const renamed = await list('?search=sklodowska&type=lease_started');
    expect(renamed.total).toBe(1);
    expect(renamed.items[0]!.customer?.lastName).toBe('Sklodowska');
  });

  it('filters by type and by tab, and counts each tab of the filtered feed', async () => {
    expect((await list('?type=invoice_sent')).total).toBe(3);
    expect((await list('?tab=payments')).items.every((a) => a.type.startsWith('invoice_') || a.type === 'payment_received')).toBe(true);
    expect((await list('?tab=leases')).items.map((a) => a.type).sort()).toEqual(['lease_ended', 'lease_started', 'unit_maintenance']);
    const counts = await inject('/api/activities/counts');
    expect(counts.statusCode).toBe(200);
    const all = (await list()).total;
    const exact = (count: number) => ({ count, kind: 'exact' });
    expect(counts.json()).toEqual({ all: exact(all), customers: exact(5), leases: exact(3), payments: exact(9), access: exact(5) });
    const searched = (await inject('/api/activities/counts?search=alan')).json();
    expect(searched).toEqual({ all: exact(2), customers: exact(2), leases: exact(0), payments: exact(0), access: exact(0) });
  });

  it('scopes the feed to a facility on the server', async () => {
    const oak = await list(`?facilityId=${oakHill}`);
    expect(oak.items.map((a) => a.type)).toEqual(['customer_archived', 'customer_added']);
    const harborFeed = await list(`?facilityId=${harbor}`);
    expect(harborFeed.items.some((a) => a.description.includes('Alan'))).toBe(false);
    // A lock belongs to a facility through its unit: installed on none, it belongs to none yet.
    expect(harborFeed.items.map((a) => a.type)).toContain('lock_assigned');
    expect(harborFeed.items.map((a) => a.type)).not.toContain('lock_installed');
    expect((await inject(`/api/activities/counts?facilityId=${oakHill}`)).json()).toMatchObject({ all: { count: 2 }, customers: { count: 2 } });
  });

  it('pages on the server', async () => {
    const all = await list();
    const page2 = await list('?pageSize=5&page=2');
    expect(page2.total).toBe(all.total);
    expect(page2.items.map((a) => a.id)).toEqual(all.items.slice(5, 10).map((a) => a.id));
  });

  it('pages from cursors, either way and in either order, as it pages by number', async () => {
    for (const order of ['desc', 'asc']) {
      const all = (await list(`?order=${order}&pageSize=200`)).items.map((a) => a.id);
      const walked: string[] = [];
      const cursors: string[] = [];
      let query = `?order=${order}&pageSize=4`;
      for (;;) {
        const response = await inject(`/api/activities${query}`);
        expect(response.statusCode, response.body).toBe(200);
        walked.push(...(response.json() as Listed[]).map((a) => a.id));
        expect(Number(response.headers['x-total-count'])).toBe(all.length);
        const next = response.headers['x-next-cursor'] as string | undefined;
        if (!next) break;
        cursors.push(next);
        query = `?order=${order}&pageSize=4&cursor=${next}`;
      }
      expect(walked).toEqual(all);
      // Back from the third page: the second one again.
      const third = await inject(`/api/activities?order=${order}&pageSize=4&cursor=${cursors[1]}`);
      const back = await list(`?order=${order}&pageSize=4&cursor=${third.headers['x-prev-cursor']}`);
      expect(back.items.map((a) => a.id)).toEqual(all.slice(4, 8));
    }
    const refused = await inject('/api/activities?cursor=bm90LWEtY3Vyc29y');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().field).toBe('cursor');
  });

  it.each([
    ['an unknown type', '?type=party', 'type'],
    ['an unknown tab', '?tab=everything', 'tab'],
    ['a bad facility', '?facilityId=12', 'facilityId'],
    ['a page size of 0', '?pageSize=0', 'pageSize'],
    ['an unknown sort column', '?sort=asc', 'sort'],
    ['an unknown parameter', '?sortBy=createdAt', 'sortBy'],
  ])('refuses %s with 400 naming the field', async (_what, query, field) => {
    const response = await inject(`/api/activities${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
  });
});

describe('activity feed search over many entries', () => {
  let platform: TestPlatform;
  let cookie: string;
  const inject = (url: string) => platform.api.app.inject({ method: 'GET', url, headers: { cookie } });

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn();
    // Straight into the read table: 3,000 entries a search matches, 20 another one does.
    await platform.api.pool.query(sql.unsafe`
      INSERT INTO activities (id, type, description, created_at, search_text)
      SELECT gen_random_uuid(), 'customer_added', 'Entry ' || n, now() - n * interval '1 minute',
             CASE WHEN n <= 20 THEN 'narrowterm entry ' ELSE 'broadterm entry ' END || n
      FROM generate_series(1, 3020) AS n`);
    await platform.api.pool.query(sql.unsafe`ANALYZE activities`);
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('says a broad search\'s total as "1,000+" instead of counting every match, and finds the same page', async () => {
    const broad = await inject('/api/activities?search=broadterm&pageSize=50');
    expect(broad.statusCode, broad.body).toBe(200);
    expect(broad.headers['x-total-capped']).toBe('true');
    expect(broad.headers['x-total-estimated']).toBeUndefined();
    expect(broad.headers['x-total-count']).toBe('1000');
    const newest = await platform.api.pool.anyFirst(sql.type(z.object({ id: z.string() }))`
      SELECT id::text FROM activities WHERE search_text LIKE '%broadterm%' ORDER BY created_at DESC, recorded_order DESC LIMIT 50`);
    expect((broad.json() as Listed[]).map((a) => a.id)).toEqual(newest);
    // A search matching few is counted exactly.
    const narrow = await inject('/api/activities?search=narrowterm&pageSize=5');
    expect(narrow.headers['x-total-count']).toBe('20');
    expect(narrow.headers['x-total-estimated']).toBeUndefined();
    expect(narrow.headers['x-total-capped']).toBeUndefined();
  });
});

describe('activities API: who did it', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('names the staff member who assigned a lock, where no renter is named', async () => {
    const { email, password } = await platform.createStaff('manager');
    const login = await platform.api.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    const cookie = sessionCookie(login.headers['set-cookie']);
    const send = (method: 'POST' | 'PATCH', url: string, payload: object) => platform.api.app.inject({ method, url, payload, headers: { cookie } });
    const unit = (await send('POST', '/api/units', { unitNumber: 'WHO-1', building: 'A', monthlyRate: '90.00' })).json() as { id: string };
    const lock = await send('POST', '/api/locks', { lockId: 'NK-WHO-1', status: 'active', batteryLevel: 90, firmwareVersion: '2.4.0' });
    expect(lock.statusCode, lock.body).toBe(201);
    const assigned = await send('PATCH', `/api/locks/${(lock.json() as { id: string }).id}`, { unitId: unit.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    await platform.readModelCaughtUp();

    const feed = await platform.api.app.inject({ method: 'GET', url: '/api/activities?type=lock_assigned', headers: { cookie } });
    const [entry] = feed.json() as { customer: unknown; staff: { name: string; email: string } | null }[];
    expect(entry).toMatchObject({ customer: null, staff: { name: 'Test manager', email } });
  });
});
