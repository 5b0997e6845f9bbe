import { randomUUID } from 'node:crypto';
import { ledgerAging, ledgerRentRoll } from '@storage/api/reports/ledger-reports';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { runBillingDay } from '@storage/domain/billing/run';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { cancelInvoice, generateInvoice, sendInvoice, writeOffInvoice } from '@storage/domain/invoices/commands';
import { startLease } from '@storage/domain/leases/commands';
import { recordDeskPayment } from '@storage/domain/payments/desk';
import { updateBillingSettings, updatePromotions } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import type { Position } from '@storage/eventstore/port';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The reports that follow the ledger, on a small history made by the billing engine in a Chicago
// facility (every figure below is worked out by hand in the comments):
//
// Ada, unit R-1 at 100.00 with a 50.00 deposit, moves in on March 10: prorated rent 22/31 of
//   100.00 = 70.97, deposit 50.00, admin fee 10.00 = 130.97, paid in cash that day. April's rent
//   (100.00) is issued on March 27; its 25.00 late fee on April 11; she pays 60.00 by check on April
//   15. A 20.00 cleaning charge (sent April 2, due April 2) is written off on April 20. May's rent
//   (100.00) is issued April 26.
// Bob, unit R-2 at 80.00, moves in on April 1: rent 80.00 + admin fee 10.00 = 90.00, and pays
//   100.00 at the desk by card: 90.00 on the invoice, 10.00 kept as credit, which May's rent
//   (80.00, issued April 26) takes. A 15.00 lock-cut charge sent April 20 is voided April 22.

const CHICAGO_EVENING = 'T23:00:00Z'; // 18:00 in Chicago (CDT), the same date there as in UTC

describe('reports from the ledger', () => {
  let platform: TestPlatform;
  let cookie: string;
  let facilityId: string;
  let ada: string;
  let bob: string;
  let last: Position | null = null;
  const at = (day: string) => new Date(`${day}${CHICAGO_EVENING}`);
  const ctx = (day: string): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: at(day) });
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

  async function renter(firstName: string, ofFacility = facilityId) {
    const tag = randomUUID().slice(0, 6);
    const customer = track(
      await addCustomer(ctx('2026-03-01'), {
        firstName,
        lastName: `Ledger${tag}`,
        email: `${firstName.toLowerCase()}-${tag}@example.com`,
        phone: null,
        address: null,
        emergencyContact: null,
        emergencyPhone: null,
        status: 'active',
        facilityId: ofFacility,
      }),
    );
    if (customer.state.status === 'none') throw new Error('no customer');
    return customer.state.customerId;
  }

  async function unit(unitNumber: string, monthlyRate: string) {
    const made = track(
      await addUnit(ctx('2026-03-01'), { facilityId, unitNumber, building: 'R', size: '10x10', monthlyRate, status: 'available', description: null }),
    );
    if (made.state.status === 'none') throw new Error('no unit');
    return made.state.unitId;
  }

  async function charge(customerId: string, amount: string, day: string, description: string) {
    const made = track(
      await generateInvoice(ctx(day), {
        invoiceNumber: `INV-L-${randomUUID().slice(0, 8)}`,
        customerId,
        leaseId: null,
        amount,
        dueDate: day,
        status: 'draft',
        description,
      }),
    );
    if (made.state.status === 'none') throw new Error('no invoice');
    track(await sendInvoice(ctx(day), made.state.invoiceId));
    return made.state.invoiceId;
  }

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn();
    const facility = track(
      await addFacility(ctx('2026-03-01'), {
        name: `Ledger ${randomUUID().slice(0, 6)}`,
        address: '3 Way',
        phone: null,
        managerName: null,
        timeZone: 'America/Chicago',
      }),
    );
    if (facility.state.status !== 'current') throw new Error('no facility');
    facilityId = facility.state.facilityId;
    track(await updateBillingSettings(ctx('2026-03-01'), { ...defaultBillingSettings, adminFee: '10.00' }, facilityId));
    const [r1, r2] = [await unit('R-1', '100.00'), await unit('R-2', '80.00')];
    ada = await renter('Ada');
    bob = await renter('Bob');

    track(await startLease(ctx('2026-03-10'), { customerId: ada, unitId: r1, startDate: '2026-03-10', monthlyRate: '100.00', depositAmount: '50.00' }));
    await settle();
    track(await recordDeskPayment(ctx('2026-03-10'), { customerId: ada, amount: '130.97', method: 'cash', reference: null }));
    await bill('2026-03-27');
    track(await startLease(ctx('2026-04-01'), { customerId: bob, unitId: r2, startDate: '2026-04-01', monthlyRate: '80.00', depositAmount: null }));
    await settle();
    track(await recordDeskPayment(ctx('2026-04-01'), { customerId: bob, amount: '100.00', method: 'card_present', reference: null }));
    const cleaning = await charge(ada, '20.00', '2026-04-02', 'Cleaning');
    await bill('2026-04-11');
    track(await recordDeskPayment(ctx('2026-04-15'), { customerId: ada, amount: '60.00', method: 'check', reference: '1001' }));
    track(await writeOffInvoice(ctx('2026-04-20'), cleaning, 'Renter disputes it'));
    const lockCut = await charge(bob, '15.00', '2026-04-20', 'Lock cut');
    track(await cancelInvoice(ctx('2026-04-22'), lockCut, 'Cut by mistake'));
    await bill('2026-04-26');
    await settle();
  }, 120_000);
  afterAll(async () => {
    await platform?.close();
  });

  it('the rent roll: each lease, the period that holds today, how far it is billed, the ledger balance and days past due', async () => {
    const roll = await ledgerRentRoll(platform.api.pool, { facilityId: facilityId }, at('2026-05-10'));
    expect(
      roll.rows.map((r) => [r.unitNumber, r.customer.split(' ')[0], r.monthlyRate, r.deposit, r.billedThrough, r.currentPeriod, r.balance, r.daysPastDue]),
    ).toEqual([
      // Ada: 130.97 − 130.97 + 100 + 20 + 25 − 60 − 20 + 100; April's rent (due April 1) is unpaid.
      ['R-1', 'Ada', '100.00', '50.00', '2026-05-31', { start: '2026-05-01', end: '2026-05-31' }, '165.00', 39],
      // Bob: 90 − 90 − 10 + 15 − 15 + 80; May's rent (due May 1) has 70.00 left.
      ['R-2', 'Bob', '80.00', null, '2026-05-31', { start: '2026-05-01', end: '2026-05-31' }, '70.00', 9],
    ]);
    expect(roll).toMatchObject({ leases: 2, totalMonthlyRate: '180.00', totalBalance: '235.00' });
    // No promotion: the rate paid is May's rent as invoiced, the street rate the unit's.
    expect(roll.rows.map((r) => [r.streetRate, r.ratePaid, r.promotion])).toEqual([
      ['100.00', '100.00', null],
      ['80.00', '80.00', null],
    ]);
    expect(roll).toMatchObject({ totalStreetRate: '180.00' });
  });

  it('street rate against rate paid: the promotion’s discount comes off the rent of the periods it covers, tax and fees left out', async () => {
    // A facility of its own (its figures stay out of the others): Cy rents P-1 (street 120.00) at
    // 110.00 with 'Spring half off' (50% off the first 2 months); Di rents P-2 (street 95.00) at
    // 90.00 without one. Both move in on March 1 (whole months); rent is taxed 10%, which is not rent.
    const made = track(
      await addFacility(ctx('2026-03-01'), {
        name: `Promo ${randomUUID().slice(0, 6)}`,
        address: '4 Way',
        phone: null,
        managerName: null,
        timeZone: 'America/Chicago',
      }),
    );
    if (made.state.status !== 'current') throw new Error('no facility');
    const promoFacility = made.state.facilityId;
    track(
      await updateBillingSettings(
        ctx('2026-03-01'),
        { ...defaultBillingSettings, salesTax: { rent: '10', adminFee: '0', lateFee: '0', merchandise: '0' } },
        promoFacility,
      ),
    );
    const promotionId = randomUUID();
    track(
      await updatePromotions(ctx('2026-03-01'), [
        {
          promotionId,
          name: 'Spring half off',
          terms: { kind: 'percent_off', percent: '50', months: 2 },
          channel: 'both',
          facilityIds: [promoFacility],
          unitSizes: [],
          startsOn: null,
          endsOn: null,
          active: true,
        },
      ]),
    );
    const unitOf = async (unitNumber: string, monthlyRate: string) => {
      const added = track(
        await addUnit(ctx('2026-03-01'), {
          facilityId: promoFacility,
          unitNumber,
          building: 'P',
          size: '10x10',
          monthlyRate,
          status: 'available',
          description: null,
        }),
      );
      if (added.state.status === 'none') throw new Error('no unit');
      return added.state.unitId;
    };
    const [p1, p2] = [await unitOf('P-1', '120.00'), await unitOf('P-2', '95.00')];
    const [cy, di] = [await renter('Cy', promoFacility), await renter('Di', promoFacility)];
    await settle();
    track(
      await startLease(
        ctx('2026-03-01'),
        { customerId: cy, unitId: p1, startDate: '2026-03-01', monthlyRate: '110.00', depositAmount: null },
        undefined,
        null,
        {
          choices: { protectionPlanId: null, promotionId },
        },
      ),
    );
    track(await startLease(ctx('2026-03-01'), { customerId: di, unitId: p2, startDate: '2026-03-01', monthlyRate: '90.00', depositAmount: null }));
    for (const day of ['2026-03-27', '2026-04-26']) {
      await settle();
      track(await runBillingDay({ store: platform.api.store, pool: platform.api.pool }, at(day), { facilityId: promoFacility }));
    }
    await settle();

    const figures = (roll: Awaited<ReturnType<typeof ledgerRentRoll>>) => ({
      rows: roll.rows.map((r) => [r.unitNumber, r.monthlyRate, r.streetRate, r.ratePaid, r.promotion]),
      totals: [roll.totalMonthlyRate, roll.totalStreetRate],
    });
    // March and April: half of Cy's 110.00; Di pays his rent.
    for (const asOf of ['2026-03-15', '2026-04-15']) {
      expect(figures(await ledgerRentRoll(platform.api.pool, { facilityId: promoFacility, asOf }, at('2026-05-10'))), asOf).toEqual({
        rows: [
          ['P-1', '110.00', '120.00', '55.00', 'Spring half off'],
          ['P-2', '90.00', '95.00', '90.00', null],
        ],
        totals: ['200.00', '215.00'],
      });
    }
    // May is past the promotion's 2 months: Cy pays the whole rent; the lease still names its promotion.
    const may = {
      rows: [
        ['P-1', '110.00', '120.00', '110.00', 'Spring half off'],
        ['P-2', '90.00', '95.00', '90.00', null],
      ],
      totals: ['200.00', '215.00'],
    };
    expect(figures(await ledgerRentRoll(platform.api.pool, { facilityId: promoFacility }, at('2026-05-10')))).toEqual(may);
    expect(figures(await ledgerRentRoll(platform.api.pool, { facilityId: promoFacility, asOf: '2026-05-10' }, at('2026-05-20')))).toEqual(may);
    // Today (billing is off here, so no period holds it): no rate paid to show.
    const now = await ledgerRentRoll(platform.api.pool, { facilityId: promoFacility }, new Date());
    expect(now.rows.map((r) => [r.currentPeriod, r.ratePaid, r.streetRate])).toEqual([
      [null, null, '120.00'],
      [null, null, '95.00'],
    ]);
    expect(now).toMatchObject({ totalStreetRate: '215.00' });
    // Over HTTP and in the CSV, the same columns.
    const page = (await inject(`/api/reports/rent-roll?facilityId=${promoFacility}&asOf=2026-04-15`)).json();
    expect(page.rows[0]).toMatchObject({ streetRate: '120.00', ratePaid: '55.00', promotion: 'Spring half off' });
    expect(page).toMatchObject({ totalStreetRate: '215.00' });
    const csv = (await inject(`/api/reports/rent-roll.csv?facilityId=${promoFacility}&asOf=2026-04-15`)).body.split('\r\n');
    expect(csv[1]).toContain(',110.00,120.00,55.00,Spring half off,');
    expect(csv[2]).toContain(',90.00,95.00,90.00,,');
  });

  it('the rent roll over HTTP is paged as every list, with the figures of the whole scope on each page', async () => {
    const first = await inject(`/api/reports/rent-roll?facilityId=${facilityId}&pageSize=1`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-total-count']).toBe('2');
    expect(first.headers['x-prev-cursor']).toBeUndefined();
    const cursor = String(first.headers['x-next-cursor']);
    const second = await inject(`/api/reports/rent-roll?facilityId=${facilityId}&pageSize=1&page=2&cursor=${cursor}`);
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    expect(second.headers['x-prev-cursor']).toBeDefined();
    // By number, as a page typed into the URL is read: the same page.
    const typed = await inject(`/api/reports/rent-roll?facilityId=${facilityId}&pageSize=1&page=2`);
    expect(typed.json()).toEqual(second.json());
    const whole = await ledgerRentRoll(platform.api.pool, { facilityId: facilityId }, new Date());
    const { rows: firstRows, ...firstFigures } = first.json();
    const { rows: secondRows, ...secondFigures } = second.json();
    expect([...firstRows, ...secondRows]).toEqual(whole.rows);
    expect(firstRows.map((r: { unitNumber: string }) => r.unitNumber)).toEqual(['R-1']);
    const { rows: _rows, ...figures } = whole;
    expect(firstFigures).toEqual(figures);
    expect(secondFigures).toEqual(figures);
    expect(figures).toMatchObject({ leases: 2, totalMonthlyRate: '180.00' });
  });

  it('aging per renter from the open invoices, reconciled to the ledger balance', async () => {
    const aging = await ledgerAging(platform.api.pool, { facilityId: facilityId }, at('2026-05-10'));
    const figures = (r: (typeof aging)['totals']) => [r.current, r.days1to30, r.days31to60, r.days61to90, r.days90plus, r.credit, r.balance, r.unreconciled];
    expect(aging.rows.map((r) => [r.customerId, ...figures(r)])).toEqual([
      // April's rent: 125.00 − 60.00 paid, 39 days past due; May's rent 9 days.
      [ada, '0.00', '100.00', '65.00', '0.00', '0.00', '0.00', '165.00', '0.00'],
      [bob, '0.00', '70.00', '0.00', '0.00', '0.00', '0.00', '70.00', '0.00'],
    ]);
    expect(figures(aging.totals)).toEqual(['0.00', '170.00', '65.00', '0.00', '0.00', '0.00', '235.00', '0.00']);
    // Before May's rent falls due (April 30), it is current.
    const earlier = await ledgerAging(platform.api.pool, { facilityId: facilityId }, at('2026-04-30'));
    expect(earlier.totals).toMatchObject({ current: '170.00', days1to30: '65.00' });
  });

  it('aging as of an earlier day: what each invoice still owed then, by days past due then', async () => {
    const on = async (asOf: string) => {
      const aging = await ledgerAging(platform.api.pool, { facilityId, asOf }, at('2026-05-10'));
      expect(aging.asOf).toBe(asOf);
      const figures = (r: (typeof aging)['totals']) => [r.current, r.days1to30, r.days31to60, r.days61to90, r.days90plus, r.credit, r.balance, r.unreconciled];
      return { rows: aging.rows.map((r) => [r.customerId, ...figures(r)]), totals: figures(aging.totals) };
    };
    // April 12: Ada owes April's rent with its late fee (125.00, due April 1) and the cleaning (20.00,
    // due April 2), both 1–30 days; Bob has the 10.00 his move-in payment kept as credit.
    expect((await on('2026-04-12')).rows).toEqual([
      [ada, '0.00', '145.00', '0.00', '0.00', '0.00', '0.00', '145.00', '0.00'],
      [bob, '0.00', '0.00', '0.00', '0.00', '0.00', '-10.00', '-10.00', '0.00'],
    ]);
    // April 21: Ada paid 60.00 and the cleaning is written off; Bob's lock cut (due April 20) is not voided yet.
    expect((await on('2026-04-21')).rows).toEqual([
      [ada, '0.00', '65.00', '0.00', '0.00', '0.00', '0.00', '65.00', '0.00'],
      [bob, '0.00', '15.00', '0.00', '0.00', '0.00', '-10.00', '5.00', '0.00'],
    ]);
    // April 27: May's rents are issued (current); Bob's credit went into his (account credit, which the ledger has no entry of).
    expect(await on('2026-04-27')).toEqual({
      rows: [
        [ada, '100.00', '65.00', '0.00', '0.00', '0.00', '0.00', '165.00', '0.00'],
        [bob, '70.00', '0.00', '0.00', '0.00', '0.00', '0.00', '70.00', '0.00'],
      ],
      totals: ['170.00', '65.00', '0.00', '0.00', '0.00', '0.00', '235.00', '0.00'],
    });
    // Before anyone moved in, nobody owed anything.
    expect((await on('2026-03-01')).rows).toEqual([]);
  });

  it('the rent roll as of an earlier day: the leases begun by then, billed and owing as they were', async () => {
    const on = async (asOf: string) => {
      const roll = await ledgerRentRoll(platform.api.pool, { facilityId, asOf }, at('2026-05-10'));
      expect(roll.asOf).toBe(asOf);
      return roll;
    };
    const march = await on('2026-03-20');
    // Bob moved in on April 1: not on March's roll. Ada's move-in invoice billed her through March 31 and she paid it.
    expect(march.rows.map((r) => [r.unitNumber, r.billedThrough, r.currentPeriod, r.balance, r.daysPastDue])).toEqual([
      ['R-1', '2026-03-31', { start: '2026-03-10', end: '2026-03-31' }, '0.00', 0],
    ]);
    expect(march).toMatchObject({ leases: 1, totalMonthlyRate: '100.00', totalBalance: '0.00' });
    const april = await on('2026-04-12');
    expect(april.rows.map((r) => [r.unitNumber, r.monthlyRate, r.billedThrough, r.currentPeriod, r.balance, r.daysPastDue])).toEqual([
      ['R-1', '100.00', '2026-04-30', { start: '2026-04-01', end: '2026-04-30' }, '145.00', 11],
      ['R-2', '80.00', '2026-04-30', { start: '2026-04-01', end: '2026-04-30' }, '-10.00', 0],
    ]);
    expect(april).toMatchObject({ leases: 2, totalMonthlyRate: '180.00', totalBalance: '135.00' });
  });

  it('refuses a report as of a day to come, naming asOf; the CSV takes the day too', async () => {
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    for (const path of ['aging', 'rent-roll', 'aging.csv', 'rent-roll.csv']) {
      const refused = await inject(`/api/reports/${path}?facilityId=${facilityId}&asOf=${future}`);
      expect(refused.statusCode, path).toBe(400);
      expect(refused.json(), path).toMatchObject({ field: 'asOf', message: expect.stringMatching(/^asOf: must be today/) });
    }
    const csv = await inject(`/api/reports/aging.csv?facilityId=${facilityId}&asOf=2026-04-21`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('aging-2026-04-21.csv');
    expect(csv.body.trimEnd().split('\r\n').at(-1)).toBe('Total,,,0.00,80.00,0.00,0.00,0.00,-10.00,70.00,0.00');
  });

  it('payments by method per day: a desk receipt counts once, its credit part included', async () => {
    const response = await inject(`/api/reports/payments-by-method?facilityId=${facilityId}&from=2026-03-01&to=2026-04-30`);
    expect(response.statusCode).toBe(200);
    const report = response.json();
    expect(report.rows.map((r: Record<string, unknown>) => [r.date, r.methodLabel, r.payments, r.paid, r.refunds, r.refunded, r.total])).toEqual([
      ['2026-03-10', 'Cash', 1, '130.97', 0, '0.00', '130.97'],
      ['2026-04-01', 'Card at the desk', 1, '100.00', 0, '0.00', '100.00'],
      ['2026-04-15', 'Check', 1, '60.00', 0, '0.00', '60.00'],
    ]);
    expect(report.methods.map((m: Record<string, unknown>) => [m.method, m.payments, m.total])).toEqual([
      ['card_present', 1, '100.00'],
      ['cash', 1, '130.97'],
      ['check', 1, '60.00'],
    ]);
    expect(report).toMatchObject({
      from: '2026-03-01',
      to: '2026-04-30',
      totals: { payments: 3, paid: '290.97', refunds: 0, refunded: '0.00', total: '290.97' },
    });
    // One day: only that day's money.
    const day = (await inject(`/api/reports/payments-by-method?facilityId=${facilityId}&from=2026-04-15&to=2026-04-15`)).json();
    expect(day.totals).toMatchObject({ payments: 1, total: '60.00' });
  });

  it('revenue by charge type per month, with voids and write-offs apart', async () => {
    const response = await inject(`/api/reports/revenue-by-charge-type?facilityId=${facilityId}&from=2026-03&to=2026-05`);
    expect(response.statusCode).toBe(200);
    const report = response.json();
    const figures = (r: Record<string, string>) => [
      r.rent,
      r.proratedRent,
      r.deposit,
      r.adminFee,
      r.lateFee,
      r.credit,
      r.adjustment,
      r.protection,
      r.discount,
      r.merchandise,
      r.charged,
      r.voided,
      r.writtenOff,
      r.net,
    ];
    expect(report.rows.map((r: Record<string, string>) => [r.month, ...figures(r)])).toEqual([
      // Ada's move-in and April's rent (issued March 27).
      ['2026-03', '100.00', '70.97', '50.00', '10.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '230.97', '0.00', '0.00', '230.97'],
      // Bob's move-in (80 + 10), the late fee, the cleaning and lock-cut charges, May's rents (100 + 80).
      ['2026-04', '260.00', '0.00', '0.00', '10.00', '25.00', '0.00', '35.00', '0.00', '0.00', '0.00', '330.00', '-15.00', '-20.00', '295.00'],
      ['2026-05', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00'],
    ]);
    expect(figures(report.totals)).toEqual([
      '360.00',
      '70.97',
      '50.00',
      '20.00',
      '25.00',
      '0.00',
      '35.00',
      '0.00',
      '0.00',
      '0.00',
      '560.97',
      '-15.00',
      '-20.00',
      '525.97',
    ]);
    // What was charged is what the ledger charged, to the cent.
    const ledgerCharged = await platform.api.pool.oneFirst(
      sql.unsafe`SELECT sum(amount)::text AS total FROM ledger_entries WHERE facility_id = ${facilityId} AND kind IN ('charge', 'late_fee')`,
    );
    expect(ledgerCharged).toBe(report.totals.charged);
  });

  it('the dashboard: revenue, outstanding and overdue from the ledger, on the facility’s dates', async () => {
    const april = (await inject(`/api/dashboard/metrics?facilityId=${facilityId}&asOf=2026-04-30`)).json();
    // April: 100.00 card (90 + 10 credit) + 60.00 check; owed: Ada 165.00, Bob 70.00; past due: Ada's April rent 65.00.
    expect(april).toMatchObject({ totalRevenue: '160.00', outstandingBalance: '235.00', overdueBalance: '65.00' });
    // March 1–30: 130.97; end of March: Ada owed April's rent, 100.00.
    expect(april.monthOverMonth).toMatchObject({ revenuePercent: 22.2, outstandingPercent: 135 });
    const march = (await inject(`/api/dashboard/metrics?facilityId=${facilityId}&asOf=2026-03-27`)).json();
    expect(march).toMatchObject({ totalRevenue: '130.97', outstandingBalance: '100.00', overdueBalance: '0.00' });
  });

  it('downloads each of them as CSV, with its totals', async () => {
    const payments = await inject(`/api/reports/payments-by-method.csv?facilityId=${facilityId}&from=2026-03-01&to=2026-04-30`);
    expect(payments.statusCode).toBe(200);
    expect(payments.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(payments.body.split('\r\n')).toEqual([
      'Date,Method,Payments,Paid,Refunds,Refunded,Total',
      '2026-03-10,Cash,1,130.97,0,0.00,130.97',
      '2026-04-01,Card at the desk,1,100.00,0,0.00,100.00',
      '2026-04-15,Check,1,60.00,0,0.00,60.00',
      '2026-03-01 – 2026-04-30,Card at the desk,1,100.00,0,0.00,100.00',
      '2026-03-01 – 2026-04-30,Cash,1,130.97,0,0.00,130.97',
      '2026-03-01 – 2026-04-30,Check,1,60.00,0,0.00,60.00',
      '2026-03-01 – 2026-04-30,All methods,3,290.97,0,0.00,290.97',
      '',
    ]);
    const revenue = (await inject(`/api/reports/revenue-by-charge-type.csv?facilityId=${facilityId}&from=2026-03&to=2026-04`)).body.split('\r\n');
    expect(revenue).toEqual([
      'Month,Rent,Prorated Rent,Deposit,Admin Fee,Late Fee,Credit,Adjustment,Protection,Promotions,Merchandise,Charged,Sales Tax,Voided,Written Off,Net',
      '2026-03,100.00,70.97,50.00,10.00,0.00,0.00,0.00,0.00,0.00,0.00,230.97,0.00,0.00,0.00,230.97',
      '2026-04,260.00,0.00,0.00,10.00,25.00,0.00,35.00,0.00,0.00,0.00,330.00,0.00,-15.00,-20.00,295.00',
      'Total,360.00,70.97,50.00,20.00,25.00,0.00,35.00,0.00,0.00,0.00,560.97,0.00,-15.00,-20.00,525.97',
      '',
    ]);
    const roll = (await inject(`/api/reports/rent-roll.csv?facilityId=${facilityId}`)).body.split('\r\n');
    expect(roll[0]).toBe(
      'Facility,Building,Unit,Size,Customer,Email,Phone,Lease Start,Monthly Rate,Street Rate,Rate Paid,Promotion,Deposit,Billed Through,Current Period Start,Current Period End,Renter Balance,Days Past Due',
    );
    expect(roll).toHaveLength(4);
    const aging = (await inject(`/api/reports/aging.csv?facilityId=${facilityId}`)).body.split('\r\n');
    // Today (November 2026 or later) everything still open is more than 90 days past due.
    expect(aging.slice(-2)).toEqual(['Total,,,0.00,0.00,0.00,0.00,235.00,0.00,235.00,0.00', '']);
  });

  it('refuses a backwards or too long range, and a malformed date, naming the field', async () => {
    for (const [url, field] of [
      [`/api/reports/payments-by-method?from=2026-04-02&to=2026-04-01`, 'to'],
      [`/api/reports/payments-by-method?from=2024-01-01&to=2026-04-01`, 'to'],
      [`/api/reports/payments-by-method?from=2020-01-01`, 'from'],
      [`/api/reports/payments-by-method.csv?from=2026-13-01`, 'from'],
      [`/api/reports/revenue-by-charge-type?from=2026-05&to=2026-04`, 'to'],
      [`/api/reports/revenue-by-charge-type?from=2026-5`, 'from'],
      [`/api/reports/revenue-by-charge-type.csv?from=2020-01`, 'from'],
      [`/api/reports/revenue-by-charge-type?from=2026-13&to=2026-13`, 'from'],
      [`/api/reports/revenue-by-charge-type?to=2026-00`, 'to'],
      [`/api/reports/payments-by-method?from=0000-01-01&to=0000-01-01`, 'from'],
      [`/api/dashboard/metrics?asOf=0000-01-01`, 'asOf'],
      [`/api/reports/rent-roll?facilityId=x`, 'facilityId'],
      [`/api/reports/rent-roll?pageSize=0`, 'pageSize'],
      [`/api/reports/rent-roll?pageSize=201`, 'pageSize'],
      [`/api/reports/rent-roll?cursor=not-a-cursor!`, 'cursor'],
      [`/api/reports/rent-roll?skip=1`, 'skip'],
      [`/api/reports/rent-roll?sort=customer`, 'sort'],
      [`/api/reports/rent-roll?asOf=2026-02-30`, 'asOf'],
      [`/api/reports/aging?asOf=yesterday`, 'asOf'],
    ] as const) {
      const response = await inject(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().field, url).toBe(field);
    }
  });

  it('counts a refund (a ledger entry of kind refund) as money going back, negative, under its method', async () => {
    // Refunds are another change's events; their ledger entries are positive and name a method.
    // The report reads the entry's kind and method only, so such an entry is enough to prove it.
    await platform.api.pool.query(sql.unsafe`
      INSERT INTO ledger_entries (id, customer_id, facility_id, entry_date, recorded_at, position, kind, description, amount, method)
      VALUES (${randomUUID()}, ${ada}, ${facilityId}, '2026-04-15', now(), 0, 'refund', 'Refund — check', 12.50, 'check')`);
    const report = (await inject(`/api/reports/payments-by-method?facilityId=${facilityId}&from=2026-04-15&to=2026-04-15`)).json();
    expect(report.rows).toEqual([
      { date: '2026-04-15', method: 'check', methodLabel: 'Check', payments: 1, paid: '60.00', refunds: 1, refunded: '-12.50', total: '47.50' },
    ]);
    expect(report.totals).toEqual({ payments: 1, paid: '60.00', refunds: 1, refunded: '-12.50', total: '47.50' });
    const april = (await inject(`/api/dashboard/metrics?facilityId=${facilityId}&asOf=2026-04-30`)).json();
    expect(april.totalRevenue).toBe('147.50');
  });
});
