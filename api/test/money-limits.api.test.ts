import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { moneyLimits } from '@storage/contracts/money';
import { addDays } from '@storage/domain/billing/calendar';
import { runBillingDay } from '@storage/domain/billing/run';
import { verifyReadModel } from '@storage/projector/verify';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { renterFields } from '@storage/testing/renters';
import fc from 'fast-check';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Every amount the write side takes is bounded where a real operator would bound it (a 400 naming
// the field, nothing written), and every sum the books make of amounts within those bounds fits
// the read model: however a clerk or the billing days pile them up, no projection fails, the
// product stays ready and a rebuild equals the live tables.

const RUNS = Number(process.env.MONEY_RUNS ?? 3);

describe('amounts the books can hold', () => {
  let platform: TestPlatform;
  let cookie: string;
  let facilityId: string;
  const today = new Date().toISOString().slice(0, 10);

  const request = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    platform.api.app.inject({ method, url, ...(payload !== undefined && { payload: payload as object }), headers: { cookie, ...headers } });
  const created = async (url: string, payload: unknown) => {
    const answer = await request('POST', url, payload);
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as { id: string };
  };
  /** What staff requests appended after `after` (the product's own jobs, such as the workflow recovery, may append meanwhile). */
  const appendedByStaff = async (after: Awaited<ReturnType<typeof platform.api.store.newestPosition>>) =>
    (await platform.api.store.readAll({ after, limit: 1000 })).filter((e) => e.metadata.actor.type === 'staff').map((e) => e.type);
  const failures = () => platform.api.pool.anyFirst(sql.type(z.object({ projection: z.string() }))`SELECT projection FROM projection_failures`);

  async function renter(tag: string) {
    return created('/api/customers', renterFields('Limit', 'Renter', tag, { facilityId }));
  }
  async function unitAt(rate: string) {
    return created('/api/units', { unitNumber: `L-${randomUUID().slice(0, 8)}`, building: 'Limits', monthlyRate: rate, facilityId });
  }

  /** The read model is healthy: it caught up, no projection failed, the product is ready, and a rebuild equals it. */
  async function expectBooksHold() {
    expect(await platform.reactionsCaughtUp(20_000)).toBe(true);
    expect(await failures()).toEqual([]);
    expect((await request('GET', '/api/health/ready')).statusCode).toBe(200);
    expect((await verifyReadModel(platform.api.pool, platform.api.store)).differences).toEqual([]);
  }

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn('owner');
    facilityId = (await created('/api/facilities', { name: 'Limits Storage', address: '1 Edge Road' })).id;
    const settings = { ...defaultBillingSettings, lateFee: { kind: 'fixed', amount: moneyLimits.fee }, adminFee: moneyLimits.fee, graceDays: 0 };
    expect((await request('PUT', '/api/settings/billing', { facilityId: null, settings })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('refuses one cent over each limit with a 400 naming the field, and writes nothing', async () => {
    const customer = await renter(randomUUID().slice(0, 8));
    const unit = await unitAt('100.00');
    const lease = await created('/api/leases', { customerId: customer.id, unitId: unit.id, monthlyRate: '100.00', startDate: today });
    expect(await platform.readModelCaughtUp()).toBe(true);
    const over = { monthlyRate: '100000.01', deposit: '100000.01', fee: '10000.01', payment: '1000000.01' };
    const cases: Array<[string, 'POST' | 'PUT', string, unknown, string]> = [
      ['a unit rate', 'POST', '/api/units', { unitNumber: 'L-over', building: 'Limits', monthlyRate: over.monthlyRate, facilityId }, 'monthlyRate'],
      ['a lease rate', 'POST', '/api/leases', { customerId: customer.id, unitId: unit.id, monthlyRate: over.monthlyRate, startDate: today }, 'monthlyRate'],
      [
        'a deposit',
        'POST',
        '/api/leases',
        { customerId: customer.id, unitId: unit.id, monthlyRate: '100.00', depositAmount: over.deposit, startDate: today },
        'depositAmount',
      ],
      ['a late fee', 'PUT', '/api/settings/payments', { automaticCharging: false, lateFeeAmount: over.fee }, 'lateFeeAmount'],
      [
        "a billing rule's late fee",
        'PUT',
        '/api/settings/billing',
        { facilityId: null, settings: { ...defaultBillingSettings, lateFee: { kind: 'fixed', amount: over.fee } } },
        'settings.lateFee.amount',
      ],
      ['an admin fee', 'PUT', '/api/settings/billing', { facilityId: null, settings: { ...defaultBillingSettings, adminFee: over.fee } }, 'settings.adminFee'],
      ['a desk payment', 'POST', `/api/customers/${customer.id}/payments`, { amount: over.payment, method: 'cash' }, 'amount'],
      ['a credit', 'POST', `/api/customers/${customer.id}/credits`, { amount: over.payment, reason: 'Goodwill' }, 'amount'],
      ['a credit refund', 'POST', `/api/customers/${customer.id}/credit-refunds`, { amount: over.payment, method: 'cash', reason: 'Leaving' }, 'amount'],
      ['an invoice', 'POST', '/api/invoices', { invoiceNumber: 'INV-OVER', customerId: customer.id, amount: over.payment, dueDate: today }, 'amount'],
      ['a new rate', 'POST', `/api/leases/${lease.id}/rent-changes`, { newRate: over.monthlyRate, effectiveDate: addDays(today, 90) }, 'newRate'],
      [
        "a bulk change's amount",
        'POST',
        '/api/rent-changes/preview',
        { facilityId, minMonthsAtRate: 0, kind: 'amount', value: over.monthlyRate, effectiveDate: addDays(today, 90) },
        'value',
      ],
    ];
    const before = await platform.api.store.newestPosition();
    for (const [what, method, url, payload, field] of cases) {
      const answer = await request(method, url, payload, { 'idempotency-key': randomUUID() });
      expect(answer.statusCode, `${what}: ${answer.body}`).toBe(400);
      expect(answer.json(), what).toMatchObject({ field, message: expect.stringContaining('must be at most') });
    }
    expect(await appendedByStaff(before)).toEqual([]);
  });

  it('lists a lease whose bulk change would pass the most a unit rents for as skipped, and schedules the others', async () => {
    const customer = await renter(randomUUID().slice(0, 8));
    const unit = await unitAt('99000.00');
    await created('/api/leases', { customerId: customer.id, unitId: unit.id, monthlyRate: '99000.00', startDate: today });
    expect(await platform.readModelCaughtUp()).toBe(true);
    const terms = (await request('GET', `/api/rent-changes/terms?facilityId=${facilityId}`)).json() as { earliestEffectiveDate: string };
    const body = { facilityId, minMonthsAtRate: 0, kind: 'amount', value: '1000.01', effectiveDate: terms.earliestEffectiveDate };
    const preview = await request('POST', '/api/rent-changes/preview', body);
    expect(preview.statusCode, preview.body).toBe(200);
    const plan = preview.json() as { leases: Array<{ unit: { id: string } }>; skipped: Array<{ unit: { id: string }; reason: string }> };
    expect(plan.leases.map((l) => l.unit.id)).not.toContain(unit.id);
    expect(plan.skipped.find((s) => s.unit.id === unit.id)?.reason).toBe('The new rate 100000.01 must be at most 100,000.00');
  });

  it('keeps the read model healthy however a clerk and the billing days pile amounts at their limits onto one renter', async () => {
    // The reproduction of a frozen install: credit past 99,999,999.99 (the old columns' most) from
    // payments a renter who owes nothing makes at the desk, each within the limit.
    const customer = await renter(randomUUID().slice(0, 8));
    for (let i = 0; i < 101; i++) {
      const answer = await request('POST', `/api/customers/${customer.id}/payments`, { amount: moneyLimits.payment, method: 'cash' });
      expect(answer.statusCode, answer.body).toBe(201);
    }
    await expectBooksHold();
    const credit = await platform.api.pool.oneFirst(sql.type(z.object({ credit: z.string() }))`
      SELECT credit_balance::text AS credit FROM customers WHERE id = ${customer.id}`);
    expect(credit).toBe('101000000.00');

    const extreme = (limit: keyof typeof moneyLimits) => fc.constantFrom(moneyLimits[limit], '0.01', '999.99');
    const action = fc.oneof(
      extreme('payment').map((amount) => ({ kind: 'pay' as const, amount })),
      extreme('payment').map((amount) => ({ kind: 'credit' as const, amount })),
      extreme('payment').map((amount) => ({ kind: 'refundCredit' as const, amount })),
      extreme('payment').map((amount) => ({ kind: 'invoice' as const, amount })),
      extreme('monthlyRate').map((newRate) => ({ kind: 'rentChange' as const, newRate })),
      extreme('monthlyRate').map((value) => ({ kind: 'bulk' as const, value })),
      fc.integer({ min: 1, max: 31 }).map((days) => ({ kind: 'days' as const, days })),
    );
    let day = today;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 4, maxLength: 8 }), async (actions) => {
        const tag = randomUUID().slice(0, 8);
        const customer = await renter(tag);
        const unit = await unitAt(moneyLimits.monthlyRate);
        const lease = await created('/api/leases', {
          customerId: customer.id,
          unitId: unit.id,
          monthlyRate: moneyLimits.monthlyRate,
          depositAmount: moneyLimits.deposit,
          startDate: day,
        });
        for (const [i, step] of actions.entries()) {
          let answer: Awaited<ReturnType<typeof request>> | null = null;
          if (step.kind === 'pay') answer = await request('POST', `/api/customers/${customer.id}/payments`, { amount: step.amount, method: 'check' });
          if (step.kind === 'credit') answer = await request('POST', `/api/customers/${customer.id}/credits`, { amount: step.amount, reason: 'Goodwill' });
          if (step.kind === 'refundCredit') {
            answer = await request('POST', `/api/customers/${customer.id}/credit-refunds`, { amount: step.amount, method: 'cash', reason: 'Leaving' });
          }
          if (step.kind === 'invoice') {
            const invoice = { invoiceNumber: `INV-L-${tag}-${i}`, customerId: customer.id, amount: step.amount, dueDate: day, status: 'sent' };
            answer = await request('POST', '/api/invoices', invoice);
          }
          if (step.kind === 'rentChange' || step.kind === 'bulk') {
            expect(await platform.readModelCaughtUp()).toBe(true);
            const terms = (await request('GET', `/api/rent-changes/terms?facilityId=${facilityId}`)).json() as { earliestEffectiveDate: string };
            answer =
              step.kind === 'rentChange'
                ? await request('POST', `/api/leases/${lease.id}/rent-changes`, { newRate: step.newRate, effectiveDate: terms.earliestEffectiveDate })
                : await request(
                    'POST',
                    '/api/rent-changes/bulk',
                    { facilityId, minMonthsAtRate: 0, kind: 'amount', value: step.value, effectiveDate: terms.earliestEffectiveDate },
                    { 'idempotency-key': randomUUID() },
                  );
          }
          if (step.kind === 'days') {
            for (let d = 0; d < step.days; d++) {
              day = addDays(day, 1);
              await runBillingDay({ pool: platform.api.pool, store: platform.api.store }, new Date(), { date: day });
            }
          }
          // A refusal is the client's (a credit refund over the credit, a rate already in place); never the server's.
          if (answer) expect(answer.statusCode, `${step.kind}: ${answer.body}`).toBeLessThan(500);
        }
        await expectBooksHold();
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 180_000);
});
