import { isoDay, monthStart, monthsUpTo } from '@storage/api/dashboard/month-over-month';
import { endLease } from '@storage/domain/leases/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyWriter } from './history.ts';

const DAY = 86_400_000;
const now = new Date();
const today = isoDay(now);
const lastMonth = new Date(`${monthStart(today, -1)}T09:00:00Z`);
const later = (date: Date, days: number) => new Date(date.getTime() + days * DAY);
const daysAgo = (days: number) => isoDay(later(now, -days));

describe('reports API', () => {
  let platform: TestPlatform;
  let cookie: string;
  let facility: string;
  const inject = (url: string) => platform.api.app.inject({ method: 'GET', url, headers: { cookie } });

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn();
    const history = historyWriter(platform);
    facility = await history.facility(lastMonth, 'Reports Storage');
    const [first, second] = [await history.unit(lastMonth, facility, 'RP-1', 'A'), await history.unit(lastMonth, facility, 'RP-2', 'A')];
    await history.unit(lastMonth, facility, 'RP-3', 'B');
    const ada = await history.customer(lastMonth, facility, { firstName: 'Ada', lastName: 'Byron', email: 'ada.reports@example.com' });
    const bob = await history.customer(lastMonth, facility, { firstName: 'Bob', email: 'bob.reports@example.com' });
    // Filled after 3.5 and 1.5 days for rent: 2.5 days on average.
    const lease = await history.lease(later(lastMonth, 3.5), ada, first, '100.00');
    await history.lease(later(lastMonth, 1.5), bob, second, '80.00');
    await history.pay(later(lastMonth, 4), await history.sentInvoice(lastMonth, ada, '100.00', isoDay(lastMonth)), '100.00');
    await history.pay(now, await history.sentInvoice(lastMonth, bob, '80.00', isoDay(lastMonth)), '80.00');
    await endLease(history.at(now), lease, today);
    // Open invoices 10, 45, 75 and 120 days past due, and one not yet due.
    for (const [days, amount] of [
      [10, '10.00'],
      [45, '20.00'],
      [75, '30.00'],
      [120, '40.00'],
      [-5, '5.00'],
    ] as const) {
      await history.sentInvoice(now, bob, amount, daysAgo(days));
    }
    await history.settle();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 when signed out', async () => {
    for (const url of [
      '/api/reports/overview',
      '/api/reports/rent-roll.csv',
      '/api/reports/aging.csv',
      '/api/reports/occupancy.csv',
      '/api/reports/revenue.csv',
      '/api/reports/rent-roll',
      '/api/reports/aging',
      '/api/reports/payments-by-method',
      '/api/reports/revenue-by-charge-type',
      '/api/reports/payments-by-method.csv',
      '/api/reports/revenue-by-charge-type.csv',
      '/api/reports/sales-tax',
      '/api/reports/sales-tax.csv',
    ]) {
      expect((await platform.api.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });

  it('computes twelve months of revenue and occupancy, aging, days to fill and payment success from the events', async () => {
    const response = await inject(`/api/reports/overview?facilityId=${facility}`);
    expect(response.statusCode).toBe(200);
    const report = response.json();
    const months = monthsUpTo(today, 12);
    expect(report.revenueByMonth.map((m: { month: string }) => m.month)).toEqual(months);
    expect(report.revenueByMonth.slice(-2)).toEqual([
      { month: months[10], revenue: '100.00', payments: 1 },
      { month: months[11], revenue: '80.00', payments: 1 },
    ]);
    expect(report.revenueByMonth[0]).toEqual({ month: months[0], revenue: '0.00', payments: 0 });
    expect(report.occupancyByMonth.slice(-3)).toEqual([
      { month: months[9], occupiedUnits: 0, totalUnits: 0, occupancyRate: null, moveIns: 0, moveOuts: 0 },
      { month: months[10], occupiedUnits: 2, totalUnits: 3, occupancyRate: 66.7, moveIns: 2, moveOuts: 0 },
      { month: months[11], occupiedUnits: 1, totalUnits: 3, occupancyRate: 33.3, moveIns: 0, moveOuts: 1 },
    ]);
    expect(report.agingReceivables).toEqual([
      { bucket: 'current', amount: '5.00', invoices: 1 },
      { bucket: '1-30', amount: '10.00', invoices: 1 },
      { bucket: '31-60', amount: '20.00', invoices: 1 },
      { bucket: '61-90', amount: '30.00', invoices: 1 },
      { bucket: '90+', amount: '40.00', invoices: 1 },
    ]);
    expect(report).toMatchObject({ daysToFill: 2.5, unitsFilled: 2, paymentSuccessRate: 33.3, invoicesDue: 6 });
  });

  it('has no figure where the data cannot give one', async () => {
    const empty = (await inject('/api/reports/overview?facilityId=4b8e8a3e-0000-4000-8000-000000000000')).json();
    expect(empty).toMatchObject({ daysToFill: null, unitsFilled: 0, paymentSuccessRate: null, invoicesDue: 0 });
    expect(empty.occupancyByMonth.every((m: { occupancyRate: number | null }) => m.occupancyRate === null)).toBe(true);
  });

  it('downloads the rent roll and aging (from the ledger), occupancy and revenue reports as CSV', async () => {
    const rentRoll = await inject(`/api/reports/rent-roll.csv?facilityId=${facility}`);
    expect(rentRoll.statusCode).toBe(200);
    expect(rentRoll.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(rentRoll.headers['content-disposition']).toBe(`attachment; filename="rent-roll-${today}.csv"`);
    expect(rentRoll.body.split('\r\n')).toEqual([
      'Facility,Building,Unit,Size,Customer,Email,Phone,Lease Start,Monthly Rate,Street Rate,Rate Paid,Promotion,Deposit,Billed Through,Current Period Start,Current Period End,Renter Balance,Days Past Due',
      // Invoices written without the billing engine: no billed period (so no rate paid in one); the oldest unpaid one is 120 days past due.
      `Reports Storage,A,RP-2,10x10,Bob Tenant,bob.reports@example.com,,${isoDay(later(lastMonth, 1.5))},80.00,100.00,,,,,,,105.00,120`,
      '',
    ]);
    // Per renter: Ada paid everything and is left out; Bob's open invoices by days past due, reconciled to his ledger.
    const aging = (await inject(`/api/reports/aging.csv?facilityId=${facility}`)).body.split('\r\n');
    expect(aging).toEqual([
      'Customer,Email,Facility,Current,1-30 Days,31-60 Days,61-90 Days,90+ Days,Credit,Balance,Unreconciled',
      'Bob Tenant,bob.reports@example.com,Reports Storage,5.00,10.00,20.00,30.00,40.00,0.00,105.00,0.00',
      'Total,,,5.00,10.00,20.00,30.00,40.00,0.00,105.00,0.00',
      '',
    ]);
    const occupancy = (await inject(`/api/reports/occupancy.csv?facilityId=${facility}`)).body.split('\r\n');
    expect(occupancy[0]).toBe('Month,Total Units,Occupied Units,Occupancy Rate (%),Move-ins,Move-outs');
    expect(occupancy[12]).toBe(`${monthsUpTo(today, 1)[0]},3,1,33.3,0,1`);
    const revenue = (await inject(`/api/reports/revenue.csv?facilityId=${facility}`)).body.split('\r\n');
    expect(revenue[0]).toBe('Month,Payments,Revenue');
    expect(revenue[12]).toBe(`${monthsUpTo(today, 1)[0]},1,80.00`);
  });

  it('refuses a bad facility id or an unknown parameter with 400 naming it', async () => {
    for (const url of ['/api/reports/overview?facilityId=x', '/api/reports/aging.csv?facilityId=x']) {
      const response = await inject(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().field).toBe('facilityId');
    }
    expect((await inject('/api/reports/overview?format=pdf')).json().field).toBe('format');
  });
});
