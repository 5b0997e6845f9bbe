import { monthStart } from '@storage/api/dashboard/month-over-month';
import { markCustomerOverdue } from '@storage/domain/invoices/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyWriter } from './history.ts';

// A history written at two moments: the first day of last month and now. Every figure and its
// month-over-month change is then known exactly.

const now = new Date();
const lastMonth = new Date(`${monthStart(now.toISOString().slice(0, 10), -1)}T09:00:00Z`);

describe('dashboard API', () => {
  let platform: TestPlatform;
  let cookie: string;
  let history: ReturnType<typeof historyWriter>;
  let riverside: string;
  let newSite: string;
  const inject = (url: string) => platform.api.app.inject({ method: 'GET', url, headers: { cookie } });

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn();
    history = historyWriter(platform);

    // Last month: five units in two buildings, two customers, one lease, one paid invoice and one open.
    riverside = await history.facility(lastMonth, 'Riverside Metrics');
    const units = [];
    for (const n of ['A1', 'A2', 'A3', 'A4']) units.push(await history.unit(lastMonth, riverside, `MT-${n}`, 'A'));
    await history.unit(lastMonth, riverside, 'MT-B1', 'B');
    const ada = await history.customer(lastMonth, riverside, { firstName: 'Ada', email: 'ada.metrics@example.com', phone: '555-777-0001' });
    const grace = await history.customer(new Date(lastMonth.getTime() + 60_000), riverside, { firstName: 'Grace', email: 'grace.metrics@example.com' });
    await history.lease(lastMonth, ada, units[0]!, '100.00');
    await history.pay(lastMonth, await history.sentInvoice(lastMonth, ada, '100.00'), '100.00');
    await history.sentInvoice(lastMonth, grace, '50.00');

    // This month: one more customer, a second lease, a payment of 80.00 and a new open invoice of 30.00.
    await history.customer(now, riverside, { firstName: 'Linus', email: 'linus.metrics@example.com' });
    await history.lease(now, grace, units[1]!, '80.00');
    await history.pay(now, await history.sentInvoice(now, grace, '80.00'), '80.00');
    await history.sentInvoice(now, ada, '30.00');
    // A renter behind on a payment still rents: she stays an active customer.
    await markCustomerOverdue(history.at(now), grace, 'An invoice is overdue');

    // A facility opened this month has no last month to compare with.
    newSite = await history.facility(now, 'New Site Metrics');
    await history.unit(now, newSite, 'NS-A1', 'A');
    await history.customer(now, newSite, { firstName: 'Newton', email: 'newton.metrics@example.com' });
    await history.settle();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 when signed out', async () => {
    for (const url of ['/api/dashboard/metrics', '/api/dashboard/recent-customers']) {
      const response = await platform.api.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
    }
  });

  it('computes each figure and its change since last month from the events, for one facility', async () => {
    const response = await inject(`/api/dashboard/metrics?facilityId=${riverside}&_t=${Date.now()}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('no-cache');
    expect(response.json()).toEqual({
      totalRevenue: '80.00',
      occupancyRate: 40,
      // Ada and Grace (overdue) rent; Linus has no lease.
      activeCustomers: 2,
      outstandingBalance: '80.00',
      overdueBalance: '0.00',
      buildingOccupancy: [
        { building: 'A', facilityId: riverside, facilityName: 'Riverside Metrics', occupied: 2, total: 4 },
        { building: 'B', facilityId: riverside, facilityName: 'Riverside Metrics', occupied: 0, total: 1 },
      ],
      monthOverMonth: {
        // 80.00 this month against 100.00 over the same days of last month.
        revenuePercent: -20,
        // 2 of 5 units now, 1 of 5 at the end of last month.
        occupancyPoints: 20,
        newCustomers: 1,
        // 80.00 open now, 50.00 at the end of last month.
        outstandingPercent: 60,
      },
    });
  });

  it('has no change to show for a facility without a previous month', async () => {
    const metrics = (await inject(`/api/dashboard/metrics?facilityId=${newSite}`)).json();
    // Newton, in good standing, rents nothing: no active customer.
    expect(metrics).toMatchObject({ totalRevenue: '0.00', occupancyRate: 0, activeCustomers: 0, outstandingBalance: '0.00' });
    expect(metrics.buildingOccupancy).toEqual([{ building: 'A', facilityId: newSite, facilityName: 'New Site Metrics', occupied: 0, total: 1 }]);
    expect(metrics.monthOverMonth).toEqual({ revenuePercent: null, occupancyPoints: null, newCustomers: 1, outstandingPercent: null });
  });

  it('sums every facility when none is selected', async () => {
    const metrics = (await inject('/api/dashboard/metrics')).json();
    expect(metrics).toMatchObject({ totalRevenue: '80.00', occupancyRate: 33.3, activeCustomers: 2, outstandingBalance: '80.00' });
    expect(metrics.buildingOccupancy.map((b: { facilityName: string; building: string }) => `${b.facilityName} ${b.building}`)).toEqual([
      'New Site Metrics A',
      'Riverside Metrics A',
      'Riverside Metrics B',
    ]);
    // 2 of 6 units now; 1 of 5 at the end of last month.
    expect(metrics.monthOverMonth).toEqual({ revenuePercent: -20, occupancyPoints: 13.3, newCustomers: 2, outstandingPercent: 60 });
  });

  it('refuses a bad facility id or an unknown parameter with 400 naming it', async () => {
    const bad = await inject('/api/dashboard/metrics?facilityId=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('facilityId');
    const unknown = await inject('/api/dashboard/metrics?range=all');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().field).toBe('range');
  });

  it('lists the newest customers with the units and rent of their active leases', async () => {
    const response = await inject(`/api/dashboard/recent-customers?facilityId=${riverside}`);
    expect(response.statusCode).toBe(200);
    const rows = response.json();
    expect(rows.map((c: { firstName: string }) => c.firstName)).toEqual(['Linus', 'Grace', 'Ada']);
    expect(rows[0]).toMatchObject({ email: 'linus.metrics@example.com', status: 'active', unitNumbers: [], monthlyRate: null });
    expect(rows[1]).toMatchObject({ unitNumbers: ['MT-A2'], monthlyRate: '80.00' });
    expect(rows[2]).toMatchObject({ unitNumbers: ['MT-A1'], monthlyRate: '100.00' });
  });

  it('searches first name, last name and email together, not the phone, and shows at most 5', async () => {
    const byName = (await inject('/api/dashboard/recent-customers?search=ADA%20TENANT')).json();
    expect(byName.map((c: { email: string }) => c.email)).toEqual(['ada.metrics@example.com']);
    expect((await inject('/api/dashboard/recent-customers?search=grace.metrics@')).json()).toHaveLength(1);
    expect((await inject('/api/dashboard/recent-customers?search=777-0001')).json()).toEqual([]);
    expect((await inject('/api/dashboard/recent-customers?search=metrics')).json()).toHaveLength(4);
    for (let i = 0; i < 3; i++) await history.customer(now, riverside, { firstName: `Extra${i}`, email: `extra${i}.metrics@example.com` });
    await history.settle();
    expect((await inject('/api/dashboard/recent-customers')).json()).toHaveLength(5);
  });
});
