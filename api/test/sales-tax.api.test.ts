import { randomUUID } from 'node:crypto';
import { type BillingSettings, defaultBillingSettings } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { MoveInQuote } from '@storage/contracts/quotes';
import { leaseInvoiceId } from '@storage/domain/billing/lease-billing';
import { runBillingDay } from '@storage/domain/billing/run';
import { type CommandContext, loadAggregate } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { invoiceAggregate } from '@storage/domain/invoices/invoice';
import { startLease } from '@storage/domain/leases/commands';
import { recordDeskPayment } from '@storage/domain/payments/desk';
import { updateBillingSettings } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import type { Position } from '@storage/eventstore/port';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Sales tax end to end: a facility's rates, the move-in billed with the tax lines its quote showed,
// the late fee taxed where it is added, the tax report (by issue day, in the facility's zone) and
// revenue by charge type keeping tax apart from revenue. Worked out by hand:
//
// Ada, unit T-1 at 100.00 with a 50.00 deposit, moves in on March 10 in Chicago: prorated rent
//   22/31 of 100.00 = 70.97 and its tax at 8.875% = 6.30 (6.2986), the deposit (never taxed), the
//   admin fee 20.00 and its tax at 5% = 1.00: 148.27, paid in cash. April's rent (100.00, tax 8.88:
//   8.875 rounds up) is issued on March 27; on April 11 its late fee 25.00 and the fee's tax at
//   7.25% = 1.81 (1.8125).

const CHICAGO_EVENING = 'T23:00:00Z'; // 18:00 in Chicago (CDT), the same date there as in UTC
const salesTax = { rent: '8.875', adminFee: '5', lateFee: '7.25', merchandise: '0' };
const taxed: BillingSettings = { ...defaultBillingSettings, adminFee: '20.00', salesTax };

describe('sales tax', () => {
  let platform: TestPlatform;
  let cookie: string;
  let facilityId: string;
  let facilityName: string;
  let ada: string;
  let leaseId: string;
  let last: Position | null = null;
  const at = (day: string) => new Date(`${day}${CHICAGO_EVENING}`);
  const ctx = (now: Date): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now });
  const track = <T extends { position: Position | null }>(result: T) => {
    if (result.position) last = result.position;
    return result;
  };
  const settle = async () => {
    if (last) expect(await platform.api.afterAppend(last, 20_000)).toBe(true);
  };
  const inject = (url: string) => platform.api.app.inject({ method: 'GET', url, headers: { cookie } });
  const bill = async (day: string) => {
    await settle();
    track(await runBillingDay({ store: platform.api.store, pool: platform.api.pool }, at(day), { facilityId }));
    await settle();
  };

  async function facility(name: string, timeZone: string) {
    const made = track(await addFacility(ctx(at('2026-03-01')), { name, address: '5 Tax Way', phone: null, managerName: null, timeZone }));
    if (made.state.status !== 'current') throw new Error('no facility');
    track(await updateBillingSettings(ctx(at('2026-03-01')), taxed, made.state.facilityId));
    return made.state.facilityId;
  }

  async function unitAt(where: string, unitNumber: string, monthlyRate: string, now: Date) {
    const made = track(
      await addUnit(ctx(now), { facilityId: where, unitNumber, building: 'T', size: '10x10', monthlyRate, status: 'available', description: null }),
    );
    if (made.state.status === 'none') throw new Error('no unit');
    return made.state.unitId;
  }

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn();
    facilityName = `Taxed ${randomUUID().slice(0, 6)}`;
    facilityId = await facility(facilityName, 'America/Chicago');
    const unitId = await unitAt(facilityId, 'T-1', '100.00', at('2026-03-01'));
    const tag = randomUUID().slice(0, 6);
    const customer = track(
      await addCustomer(ctx(at('2026-03-01')), {
        firstName: 'Ada',
        lastName: `Tax${tag}`,
        email: `ada-${tag}@example.com`,
        phone: null,
        address: null,
        emergencyContact: null,
        emergencyPhone: null,
        status: 'active',
        facilityId,
      }),
    );
    if (customer.state.status === 'none') throw new Error('no customer');
    ada = customer.state.customerId;
    leaseId = randomUUID();
    track(
      await startLease(ctx(at('2026-03-10')), { customerId: ada, unitId, startDate: '2026-03-10', monthlyRate: '100.00', depositAmount: '50.00' }, leaseId),
    );
    await settle();
    track(await recordDeskPayment(ctx(at('2026-03-10')), { customerId: ada, amount: '148.27', method: 'cash', reference: null }));
    await bill('2026-03-27');
    await bill('2026-04-11');
  }, 120_000);
  afterAll(async () => {
    await platform?.close();
  });

  const linesOf = async (periodStart: string) => {
    const { state } = await loadAggregate(platform.api.store, streams.invoice(leaseInvoiceId(leaseId, periodStart)), invoiceAggregate);
    if (state.status !== 'current') throw new Error(`no invoice for ${periodStart}`);
    return state.fields;
  };

  it('bills each taxed line with its tax line, never the deposit, and the late fee with its own tax', async () => {
    const moveIn = await linesOf('2026-03-10');
    expect(moveIn.lines.map((l) => [l.kind, l.amount])).toEqual([
      ['prorated_rent', '70.97'],
      ['tax', '6.30'],
      ['deposit', '50.00'],
      ['admin_fee', '20.00'],
      ['tax', '1.00'],
    ]);
    expect(moveIn.lines[1]!.description).toBe('Sales tax 8.875% on Prorated rent Mar 10 – Mar 31, 2026 (22 of 31 days)');
    expect(moveIn.amount).toBe('148.27');
    const april = await linesOf('2026-04-01');
    expect(april.lines.map((l) => [l.kind, l.amount])).toEqual([
      ['rent', '100.00'],
      ['tax', '8.88'],
      ['late_fee', '25.00'],
      ['tax', '1.81'],
    ]);
    expect(april.lines[3]!.description).toMatch(/^Sales tax 7\.25% on Late fee/);
    expect(april.amount).toBe('135.69');
    // The invoices' read rows and the ledger agree to the cent.
    const owed = await platform.api.pool.oneFirst(sql.unsafe`SELECT balance::text FROM customer_balances WHERE customer_id = ${ada}`);
    expect(owed).toBe('135.69');
  });

  it('reports per facility and charge kind the amount billed, what carried tax and the tax, by the day each invoice was issued', async () => {
    const response = await inject(`/api/reports/sales-tax?facilityId=${facilityId}&from=2026-03-01&to=2026-04-30`);
    expect(response.statusCode).toBe(200);
    const report = response.json();
    expect(report.rows.map((r: Record<string, string>) => [r.facility, r.kindLabel, r.billed, r.taxable, r.tax])).toEqual([
      [facilityName, 'Rent', '100.00', '100.00', '8.88'],
      [facilityName, 'Prorated rent', '70.97', '70.97', '6.30'],
      [facilityName, 'Admin fee', '20.00', '20.00', '1.00'],
      [facilityName, 'Late fee', '25.00', '25.00', '1.81'],
    ]);
    expect(report.totals).toEqual({ billed: '215.97', taxable: '215.97', tax: '17.99' });
    // April's rent was issued on March 27 (its late fee with it): April issued nothing.
    const april = (await inject(`/api/reports/sales-tax?facilityId=${facilityId}&from=2026-04-01&to=2026-04-30`)).json();
    expect(april).toEqual({ from: '2026-04-01', to: '2026-04-30', rows: [], totals: { billed: '0.00', taxable: '0.00', tax: '0.00' } });
    // The tax billed is the tax lines on the ledger, to the cent.
    const csv = (await inject(`/api/reports/sales-tax.csv?facilityId=${facilityId}&from=2026-03-01&to=2026-03-31`)).body.split('\r\n');
    expect(csv).toEqual([
      'From,To,Facility,Charge,Billed,Taxable,Sales Tax',
      `2026-03-01,2026-03-31,${facilityName},Rent,100.00,100.00,8.88`,
      `2026-03-01,2026-03-31,${facilityName},Prorated rent,70.97,70.97,6.30`,
      `2026-03-01,2026-03-31,${facilityName},Admin fee,20.00,20.00,1.00`,
      `2026-03-01,2026-03-31,${facilityName},Late fee,25.00,25.00,1.81`,
      '2026-03-01,2026-03-31,Total,,215.97,215.97,17.99',
      '',
    ]);
  });

  it('keeps tax out of revenue by charge type, in a column of its own, and every cent in the net', async () => {
    const report = (await inject(`/api/reports/revenue-by-charge-type?facilityId=${facilityId}&from=2026-03&to=2026-04`)).json();
    const figures = (r: Record<string, string>) => [r.rent, r.proratedRent, r.deposit, r.adminFee, r.lateFee, r.charged, r.tax, r.net];
    expect(report.rows.map((r: Record<string, string>) => [r.month, ...figures(r)])).toEqual([
      ['2026-03', '100.00', '70.97', '50.00', '20.00', '0.00', '240.97', '16.18', '257.15'],
      ['2026-04', '0.00', '0.00', '0.00', '0.00', '25.00', '25.00', '1.81', '26.81'],
    ]);
    const ledgerCharged = await platform.api.pool.oneFirst(
      sql.unsafe`SELECT sum(amount)::text AS total FROM ledger_entries WHERE facility_id = ${facilityId} AND kind IN ('charge', 'late_fee')`,
    );
    expect(ledgerCharged).toBe(report.totals.net);
  });

  it('refuses a bad range with 400 naming the field', async () => {
    for (const [query, field] of [
      ['from=2026-02-30', 'from'],
      ['from=2026-04-01&to=2026-03-01', 'to'],
      ['from=2025-01-01&to=2026-03-01', 'to'],
      ['facilityId=riverside', 'facilityId'],
    ] as const) {
      for (const path of ['/api/reports/sales-tax', '/api/reports/sales-tax.csv']) {
        const response = await inject(`${path}?${query}`);
        expect(response.statusCode, `${path}?${query}`).toBe(400);
        expect(response.json().field).toBe(field);
      }
    }
    expect((await platform.api.app.inject({ method: 'GET', url: '/api/reports/sales-tax' })).statusCode).toBe(401);
  });

  it('a Move In bills exactly the tax lines its quote showed', async () => {
    // UTC, so the facility's today is the test's.
    const now = new Date();
    const where = await facility(`Quoted ${randomUUID().slice(0, 6)}`, 'UTC');
    const unitId = await unitAt(where, 'Q-1', '130.00', now);
    await settle();
    const startDate = now.toISOString().slice(0, 10);
    const response = await inject(`/api/units/${unitId}/move-in-quote?startDate=${startDate}&depositAmount=60.00`);
    expect(response.statusCode).toBe(200);
    const quote = MoveInQuote.parse(response.json());
    const kinds = quote.dueToday[0]!.lines.map((l) => l.kind);
    expect(kinds.filter((k) => k === 'tax')).toHaveLength(2);
    expect(kinds).toContain('deposit');
    expect(quote.nextInvoice!.lines.map((l) => l.kind)).toEqual(['rent', 'tax']);

    const customer = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      headers: { cookie },
      payload: { firstName: 'Quinn', lastName: 'Quote', email: `quinn-${randomUUID().slice(0, 6)}@example.com`, phone: '555-010-4455', facilityId: where },
    });
    expect(customer.statusCode).toBe(201);
    const moved = await platform.api.app.inject({
      method: 'POST',
      url: '/api/leases',
      headers: { cookie },
      payload: { customerId: customer.json().id, unitId, monthlyRate: '130.00', depositAmount: '60.00', startDate },
    });
    expect(moved.statusCode).toBe(201);
    for (const quoted of quote.dueToday) {
      const { state } = await loadAggregate(platform.api.store, streams.invoice(leaseInvoiceId(moved.json().id, quoted.periodStart)), invoiceAggregate);
      if (state.status !== 'current') throw new Error(`No invoice for ${quoted.periodStart}`);
      expect(state.fields.lines).toEqual(quoted.lines);
      expect(state.fields.amount).toBe(quoted.total);
    }
  });
});
