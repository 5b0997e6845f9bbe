import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import type { Promotion } from '@storage/contracts/promotions';
import { MAX_MOVE_IN_SUMMARIES, MoveInSummary, PublicMoveInQuote } from '@storage/contracts/quotes';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { updateBillingSettings, updatePromotions } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The public unit list's "Due at move-in": for each unit asked, the very total the rent-now
// wizard's quote gives for a move-in today, and only the promotions a move-in there may take online.

const tag = () => Math.random().toString(36).slice(2, 8);

describe('move-in summaries of the public unit list', () => {
  let platform: TestPlatform;
  let cookie: string;
  const facilityId = randomUUID();
  const otherFacilityId = randomUUID();
  const get = (url: string) => platform.api.app.inject({ method: 'GET', url });
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const promotion = (name: string, changes: Partial<Promotion>): Promotion => ({
    promotionId: randomUUID(),
    name,
    terms: { kind: 'percent_off', percent: '50', months: 2 },
    channel: 'online',
    facilityIds: [facilityId],
    unitSizes: [],
    startsOn: null,
    endsOn: null,
    active: true,
    ...changes,
  });

  async function newUnit(size: '10x10' | '5x5', monthlyRate = '120.00', facility = facilityId) {
    const unitId = randomUUID();
    const added = await addUnit(
      context(),
      { facilityId: facility, unitNumber: `S-${tag()}`, building: 'A', size, monthlyRate, status: 'available', description: null },
      unitId,
    );
    if (added.position) await platform.api.afterAppend(added.position, 10_000);
    return unitId;
  }

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn();
    await addFacility(context(), { name: `Summary Test ${tag()}`, address: '1 Test Way', phone: null, managerName: null }, facilityId);
    await addFacility(context(), { name: `Elsewhere ${tag()}`, address: '2 Test Way', phone: null, managerName: null }, otherFacilityId);
    await updateBillingSettings(
      context(),
      { ...defaultBillingSettings, adminFee: '25.00', salesTax: { rent: '8', adminFee: '0', lateFee: '0', merchandise: '0' } },
      facilityId,
    );
    await updatePromotions(context(), [
      promotion('Half off', {}),
      promotion('Desk deal', { channel: 'desk' }),
      promotion('Small units only', { unitSizes: ['5x5'] }),
      promotion('Switched off', { active: false }),
      promotion('Over already', { endsOn: '2020-01-31' }),
      promotion('Everywhere online', { channel: 'both', facilityIds: [], terms: { kind: 'amount_off', amount: '10.00', months: 1 } }),
    ]);
  });
  afterAll(async () => {
    await platform?.close();
  });

  it("gives each available unit the rent-now quote's total for a move-in today, with the promotions that apply online", async () => {
    const large = await newUnit('10x10', '149.00');
    const small = await newUnit('5x5', '49.00');
    const away = await newUnit('10x10', '99.00', otherFacilityId);
    const response = await get(`/api/public/units/move-in-summaries?unitIds=${[small, large, away].join(',')}`);
    expect(response.statusCode).toBe(200);
    const summaries = MoveInSummary.array().parse(response.json());
    expect(summaries.map((s) => s.unitId)).toEqual([small, large, away]);
    for (const summary of summaries) {
      const quoted = await get(`/api/public/units/${summary.unitId}/move-in-quote?moveInDate=${summary.today}`);
      expect(quoted.statusCode).toBe(200);
      const quote = PublicMoveInQuote.parse(quoted.json());
      expect(summary.today).toBe(quote.today);
      expect(summary.totalDueToday).toBe(quote.totalDueToday);
      expect(summary.promotions).toEqual(quote.offers.promotions);
    }
    const offered = (unitId: string) => summaries.find((s) => s.unitId === unitId)!.promotions.map((p) => `${p.name}: ${p.words}`);
    expect(offered(large)).toEqual(['Half off: 50% off the first 2 months', 'Everywhere online: $10.00 off the first month']);
    expect(offered(small)).toEqual([
      'Half off: 50% off the first 2 months',
      'Small units only: 50% off the first 2 months',
      'Everywhere online: $10.00 off the first month',
    ]);
    expect(offered(away)).toEqual(['Everywhere online: $10.00 off the first month']);
    // The admin fee and the rent's tax are in it: more than the rent prorated alone.
    expect(Number(summaries[1]!.totalDueToday)).toBeGreaterThan(25);
  });

  it('gives no summary for a unit that is not available or does not exist, and refuses a list that is not unit ids', async () => {
    const available = await newUnit('10x10');
    const closed = await newUnit('10x10');
    await platform.api.app.inject({ method: 'PUT', url: `/api/units/${closed}/status`, headers: { cookie }, payload: { status: 'maintenance' } });
    const response = await get(`/api/public/units/move-in-summaries?unitIds=${available},${closed},${randomUUID()},${available}`);
    expect(response.statusCode).toBe(200);
    expect(
      MoveInSummary.array()
        .parse(response.json())
        .map((s) => s.unitId),
    ).toEqual([available]);

    const tooMany = Array.from({ length: MAX_MOVE_IN_SUMMARIES + 1 }, () => randomUUID()).join(',');
    for (const query of [
      '',
      'unitIds=',
      'unitIds=not-a-unit',
      `unitIds=${available},42`,
      `unitIds=${tooMany}`,
      `unitIds=${available}&facilityId=${facilityId}`,
    ]) {
      const refused = await get(`/api/public/units/move-in-summaries?${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().message, query).toContain(query.includes('facilityId') ? 'facilityId' : 'unitIds');
    }
  });

  it('answers at most 30 a minute from one address', async () => {
    const unitId = await newUnit('10x10');
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await get(`/api/public/units/move-in-summaries?unitIds=${unitId}`)).statusCode);
    expect(statuses.slice(0, 25).every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
