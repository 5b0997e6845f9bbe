import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { Ledger } from '@storage/contracts/ledger';
import { AgingReport } from '@storage/contracts/reports';
import { addDays } from '@storage/domain/billing/calendar';
import { runBillingDay } from '@storage/domain/billing/run';
import { advanceBusinessDay } from '@storage/platform/business-clock';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { renterFields } from '@storage/testing/renters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The business day is one clock: once a demo (or billing:run --date) moves it ahead, everything
// follows it, not only the invoices: the billing days stamp their events on the day they bill,
// the ledger dates each charge, fee and payment on its business day, and the reports count days
// past due from the business today.

describe('one business clock', () => {
  let platform: TestPlatform;
  let cookie: string;
  const wallToday = new Date().toISOString().slice(0, 10);

  const request = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    platform.api.app.inject({ method, url, ...(payload !== undefined && { payload: payload as object }), headers: { cookie } });
  const created = async (url: string, payload: unknown) => {
    const answer = await request('POST', url, payload);
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as { id: string };
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn('owner');
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('dates charges, late fees and payments on the business day, and ages from it, after the day is moved ahead', async () => {
    const settings = { ...defaultBillingSettings, graceDays: 5, lateFee: { kind: 'fixed', amount: '20.00' }, prorateFirstMonth: false };
    expect((await request('PUT', '/api/settings/billing', { facilityId: null, settings })).statusCode).toBe(200);
    const facility = await created('/api/facilities', { name: 'Clockwork Storage', address: '1 Calendar Lane' });
    const customer = await created('/api/customers', renterFields('Clock', 'Renter', randomUUID().slice(0, 8), { facilityId: facility.id }));
    const unit = await created('/api/units', { unitNumber: 'C-1', building: 'Clock', monthlyRate: '100.00', facilityId: facility.id });
    await created('/api/leases', { customerId: customer.id, unitId: unit.id, monthlyRate: '100.00', startDate: wallToday });

    // The demo moves the business day 70 days ahead and runs every day up to it, as billing:run --date does.
    const businessDay = addDays(wallToday, 70);
    expect(await advanceBusinessDay(platform.api.store, businessDay)).toBe(true);
    expect(await advanceBusinessDay(platform.api.store, addDays(businessDay, -1))).toBe(false);
    await platform.api.clock.refresh();
    expect(platform.api.clock.now().toISOString().slice(0, 10)).toBe(businessDay);
    for (let day = addDays(wallToday, 1); day <= businessDay; day = addDays(day, 1)) {
      await runBillingDay({ pool: platform.api.pool, store: platform.api.store }, platform.api.clock.now(), { date: day });
    }
    expect(await platform.readModelCaughtUp()).toBe(true);
    // A payment at the desk now is the business day's.
    const paid = await request('POST', `/api/customers/${customer.id}/payments`, { amount: '10.00', method: 'cash' });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(await platform.readModelCaughtUp()).toBe(true);

    const ledger = Ledger.parse((await request('GET', `/api/customers/${customer.id}/ledger`)).json());
    expect(ledger.asOf).toBe(businessDay);
    const fees = ledger.entries.filter((e) => e.kind === 'late_fee');
    expect(fees.length).toBeGreaterThan(0);
    const invoices = (await request('GET', `/api/invoices?customerId=${customer.id}&pageSize=50`)).json() as {
      invoices?: Array<{ invoiceNumber: string; dueDate: string }>;
    };
    const rows = invoices.invoices ?? (invoices as unknown as Array<{ invoiceNumber: string; dueDate: string }>);
    for (const fee of fees) {
      const due = rows.find((i) => i.invoiceNumber === fee.invoiceNumber)!.dueDate;
      // The fee comes after the grace days of its own due date, on the day the run charged it.
      expect(fee.date > addDays(due, settings.graceDays - 1), `${fee.description} on ${fee.date}`).toBe(true);
    }
    const charges = ledger.entries.filter((e) => e.kind === 'charge').map((e) => e.date);
    // Each charge on the day its invoice was issued: the move-in's (and a rent due within the issue days) today, the rest on the days run ahead.
    expect(charges.every((date) => date >= wallToday && date <= businessDay)).toBe(true);
    expect(charges.filter((date) => date > wallToday).length).toBeGreaterThanOrEqual(2);
    expect(ledger.entries.filter((e) => e.kind === 'payment').map((e) => e.date)).toEqual([businessDay]);

    // Aging counts from the business today: the invoices past due are in their buckets, not Current.
    const aging = AgingReport.parse((await request('GET', `/api/reports/aging?facilityId=${facility.id}`)).json());
    const row = aging.rows.find((r) => r.customerId === customer.id)!;
    expect(row.current).toBe('0.00');
    expect(row.days1to30 !== '0.00' || row.days31to60 !== '0.00').toBe(true);
    expect(row.unreconciled).toBe('0.00');
  });
});
