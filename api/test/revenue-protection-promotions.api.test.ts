import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import type { Promotion } from '@storage/contracts/promotions';
import { MoveInQuote } from '@storage/contracts/quotes';
import { RevenueByChargeType, type RevenueByChargeTypeRow } from '@storage/contracts/reports';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { updateBillingSettings, updatePromotions, updateProtectionSettings } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Revenue by charge type counts a plan's premiums and a promotion's discounts in columns of their
// own: a move-in with both shows, in its month, exactly the lines its invoice was billed.

const tag = () => Math.random().toString(36).slice(2, 8);
const cents = (amount: string) => BigInt(amount.replace('.', ''));
const dollars = (value: bigint) => {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};
const sum = (amounts: string[]) => dollars(amounts.reduce((total, amount) => total + cents(amount), 0n));

const kindColumns = ['rent', 'proratedRent', 'deposit', 'adminFee', 'lateFee', 'credit', 'adjustment', 'protection', 'discount', 'merchandise'] as const;

describe('revenue by charge type: protection and promotions', () => {
  let platform: TestPlatform;
  let cookie: string;
  const facilityId = randomUUID();
  const basic = { planId: randomUUID(), name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' };
  const halfOff: Promotion = {
    promotionId: randomUUID(),
    name: 'Half off',
    terms: { kind: 'percent_off', percent: '50', months: 2 },
    channel: 'both',
    facilityIds: [facilityId],
    unitSizes: [],
    startsOn: null,
    endsOn: null,
    active: true,
  };
  const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
    platform.api.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn();
    await addFacility(context(), { name: `Revenue Protection ${tag()}`, address: '1 Test Way', phone: null, managerName: null }, facilityId);
    await updateBillingSettings(context(), { ...defaultBillingSettings, salesTax: { rent: '10', adminFee: '0', lateFee: '0', merchandise: '0' } }, facilityId);
    await updateProtectionSettings(context(), { plans: [basic], defaultPlanId: null, enrollAfterDays: null }, facilityId);
    await updatePromotions(context(), [halfOff]);
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('shows a move-in’s premium under protection and its discount under discount in its month, charged being the sum of the kinds', async () => {
    const unitId = randomUUID();
    const unitFields = {
      facilityId,
      unitNumber: `R-${tag()}`,
      building: 'A',
      size: '10x10' as const,
      monthlyRate: '120.00',
      status: 'available' as const,
      description: null,
    };
    const added = await addUnit(context(), unitFields, unitId);
    if (added.position) await platform.api.afterAppend(added.position, 10_000);
    const customer = await inject('POST', '/api/customers', {
      firstName: 'Rae',
      lastName: 'Revenue',
      email: `rae-${tag()}@example.com`,
      phone: '555-010-4433',
      facilityId,
    });
    expect(customer.statusCode).toBe(201);

    const startDate = new Date().toISOString().slice(0, 10);
    const choices = { protectionPlanId: basic.planId, promotionId: halfOff.promotionId };
    const quoted = await inject('GET', `/api/units/${unitId}/move-in-quote?${new URLSearchParams({ startDate, ...choices })}`);
    expect(quoted.statusCode).toBe(200);
    const quote = MoveInQuote.parse(quoted.json());
    const moved = await inject('POST', '/api/leases', { customerId: customer.json().id, unitId, monthlyRate: '120.00', startDate, ...choices });
    expect(moved.statusCode).toBe(201);
    expect(await platform.readModelCaughtUp()).toBe(true);

    const response = await inject('GET', `/api/reports/revenue-by-charge-type?facilityId=${facilityId}`);
    expect(response.statusCode).toBe(200);
    const report = RevenueByChargeType.parse(response.json());
    const billed = quote.dueToday.flatMap((invoice) => invoice.lines);
    const linesOf = (kind: string) => billed.filter((line) => line.kind === kind).map((line) => line.amount);
    expect(linesOf('protection')).not.toHaveLength(0);
    expect(linesOf('discount')).not.toHaveLength(0);

    const month = quote.dueToday[0]!.issueDate.slice(0, 7);
    const row = report.rows.find((r) => r.month === month);
    if (!row) throw new Error(`No row for ${month}`);
    for (const figures of [row, report.totals]) {
      expect(figures.protection).toBe(sum(linesOf('protection')));
      expect(figures.discount).toBe(sum(linesOf('discount')));
      expect(cents(figures.discount)).toBeLessThan(0n);
      expect(figures.charged).toBe(sum(kindColumns.map((key) => (figures as RevenueByChargeTypeRow)[key])));
      expect(figures.charged).toBe(sum(billed.filter((line) => line.kind !== 'tax').map((line) => line.amount)));
    }
  });
});
