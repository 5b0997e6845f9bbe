import { isoDay, monthStart } from '@storage/api/dashboard/month-over-month';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyWriter } from './history.ts';

// A history up to last month's end, then changes after it: asked as of that month-end, the
// dashboard answers the figures as they stood then, not today's.

const now = new Date();
const today = isoDay(now);
const lastMonth = new Date(`${monthStart(today, -1)}T09:00:00Z`);
const lastMonthEnd = isoDay(new Date(Date.parse(`${monthStart(today)}T00:00:00Z`) - 1));

describe('dashboard metrics as of a past day', () => {
  let platform: TestPlatform;
  let cookie: string;
  let facilityId: string;
  const metrics = async (query: string) => {
    const response = await platform.api.app.inject({ method: 'GET', url: `/api/dashboard/metrics?facilityId=${facilityId}${query}`, headers: { cookie } });
    return { status: response.statusCode, body: response.json() };
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn();
    const history = historyWriter(platform);

    // By last month's end: four units, one let; two customers; 100.00 paid and 50.00 open.
    facilityId = await history.facility(lastMonth, 'As Of Storage');
    const units = [];
    for (const n of ['1', '2', '3', '4']) units.push(await history.unit(lastMonth, facilityId, `AO-${n}`, 'A'));
    const ada = await history.customer(lastMonth, facilityId, { firstName: 'Ada', email: 'ada.asof@example.com' });
    const grace = await history.customer(lastMonth, facilityId, { firstName: 'Grace', email: 'grace.asof@example.com' });
    await history.lease(lastMonth, ada, units[0]!, '100.00');
    await history.pay(lastMonth, await history.sentInvoice(lastMonth, ada, '100.00'), '100.00');
    const open = await history.sentInvoice(lastMonth, grace, '50.00');

    // Since: a fifth unit, a second lease, a third customer, the open invoice paid and a new one of 30.00.
    await history.unit(now, facilityId, 'AO-5', 'A');
    await history.lease(now, grace, units[1]!, '80.00');
    await history.customer(now, facilityId, { firstName: 'Linus', email: 'linus.asof@example.com' });
    await history.pay(now, open, '50.00');
    await history.sentInvoice(now, ada, '30.00');
    await history.settle();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers today’s figures without asOf', async () => {
    const { status, body } = await metrics('');
    expect(status).toBe(200);
    // Ada and Grace rent; Linus has no lease.
    expect(body).toMatchObject({ totalRevenue: '50.00', occupancyRate: 40, activeCustomers: 2, outstandingBalance: '30.00' });
    expect(body.monthOverMonth).toMatchObject({ newCustomers: 1, revenuePercent: -50, occupancyPoints: 15, outstandingPercent: -40 });
    expect((await metrics(`&asOf=${today}`)).body).toEqual(body);
  });

  it('answers the month-end figures as of the month-end', async () => {
    const { status, body } = await metrics(`&asOf=${lastMonthEnd}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      totalRevenue: '100.00',
      occupancyRate: 25,
      // Only Ada rented then: Grace's lease started this month.
      activeCustomers: 1,
      outstandingBalance: '50.00',
      overdueBalance: '0.00',
      // Four units then, one let; the fifth came later.
      buildingOccupancy: [{ building: 'A', facilityId, facilityName: 'As Of Storage', occupied: 1, total: 4 }],
      // Nothing happened before last month: no earlier month to compare with.
      monthOverMonth: { revenuePercent: null, occupancyPoints: null, newCustomers: 2, outstandingPercent: null },
    });
  });

  it('takes an ISO date and time as its UTC day', async () => {
    expect((await metrics(`&asOf=${lastMonthEnd}T23:59:59Z`)).body).toEqual((await metrics(`&asOf=${lastMonthEnd}`)).body);
  });

  it('answers 400 naming asOf for a future or malformed date', async () => {
    const tomorrow = isoDay(new Date(now.getTime() + 86_400_000));
    for (const asOf of [tomorrow, 'yesterday', '2025-02-30', '31.10.2025']) {
      const { status, body } = await metrics(`&asOf=${encodeURIComponent(asOf)}`);
      expect(status, asOf).toBe(400);
      expect(JSON.stringify(body), asOf).toContain('asOf');
    }
  });
});
