import { randomUUID } from 'node:crypto';
import type { Promotion } from '@storage/contracts/promotions';
import type { ProtectionSettings } from '@storage/contracts/protection';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const basic = randomUUID();
const premium = randomUUID();
const businessPlans: ProtectionSettings = {
  plans: [
    { planId: basic, name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' },
    { planId: premium, name: 'Premium', coverageAmount: '5000.00', monthlyPremium: '24.50' },
  ],
  defaultPlanId: basic,
  enrollAfterDays: 30,
};
const ownPlans: ProtectionSettings = {
  plans: [{ planId: randomUUID(), name: 'Riverside cover', coverageAmount: '3000.00', monthlyPremium: '15.00' }],
  defaultPlanId: null,
  enrollAfterDays: null,
};

const firstMonthFree: Promotion = {
  promotionId: randomUUID(),
  name: 'First month free',
  terms: { kind: 'percent_off', percent: '100', months: 1 },
  channel: 'both',
  facilityIds: [],
  unitSizes: [],
  startsOn: null,
  endsOn: null,
  active: true,
};

describe('protection plans and promotions settings API', () => {
  let platform: TestPlatform;
  let cookie: string;
  let facilityId: string;
  const inject = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown, as = cookie) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie: as } });
  const events = async (scope: string) => (await platform.api.store.readStream(`settings-${scope}`)).map((e) => e.type);

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn('owner');
    const created = await inject('POST', '/api/facilities', { name: `Yard ${randomUUID().slice(0, 8)}`, address: '1 Main St', timeZone: 'America/Chicago' });
    facilityId = created.json().id;
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 when signed out', async () => {
    for (const [method, url, payload] of [
      ['GET', '/api/settings/protection', undefined],
      ['PUT', '/api/settings/protection', { facilityId: null, settings: null }],
      ['GET', '/api/settings/promotions', undefined],
      ['PUT', '/api/settings/promotions', { promotions: [] }],
    ] as const) {
      expect((await platform.api.app.inject({ method, url, payload })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('shows no plans and no promotions before anything is saved', async () => {
    const none = { plans: [], defaultPlanId: null, enrollAfterDays: null };
    const plans = await inject('GET', `/api/settings/protection?facilityId=${facilityId}`);
    expect(plans.statusCode).toBe(200);
    expect(plans.json()).toEqual({ business: null, facility: null, effective: none });
    const promotions = await inject('GET', '/api/settings/promotions');
    expect(promotions.statusCode).toBe(200);
    expect(promotions.json()).toEqual({ promotions: [] });
  });

  it("saves the business's plans, which a facility without its own follows; saving them again records nothing", async () => {
    const saved = await inject('PUT', '/api/settings/protection', { facilityId: null, settings: businessPlans });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ business: businessPlans, facility: null, effective: businessPlans });
    expect((await inject('GET', `/api/settings/protection?facilityId=${facilityId}`)).json()).toEqual({
      business: businessPlans,
      facility: null,
      effective: businessPlans,
    });
    const before = await events('business');
    expect((await inject('PUT', '/api/settings/protection', { facilityId: null, settings: businessPlans })).statusCode).toBe(200);
    expect(await events('business')).toEqual(before);
  });

  it("gives a facility its own plans, and null follows the business's again", async () => {
    const own = await inject('PUT', '/api/settings/protection', { facilityId, settings: ownPlans });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ business: businessPlans, facility: ownPlans, effective: ownPlans });
    expect((await inject('GET', '/api/settings/protection')).json()).toEqual({ business: businessPlans, facility: null, effective: businessPlans });

    const follow = await inject('PUT', '/api/settings/protection', { facilityId, settings: null });
    expect(follow.statusCode).toBe(200);
    expect(follow.json()).toEqual({ business: businessPlans, facility: null, effective: businessPlans });
    expect(await events(facilityId)).toEqual(['protection_settings_updated', 'protection_settings_updated']);
  });

  const plan = businessPlans.plans[0]!;
  it.each([
    ['a missing facilityId', { settings: businessPlans }, 'facilityId'],
    ['a facilityId that is no id', { facilityId: 'riverside', settings: businessPlans }, 'facilityId'],
    ['a plan without a name', { facilityId: null, settings: { ...businessPlans, plans: [{ ...plan, name: ' ' }] } }, 'settings.plans.0.name'],
    [
      'a coverage of zero',
      { facilityId: null, settings: { ...businessPlans, plans: [{ ...plan, coverageAmount: '0.00' }] } },
      'settings.plans.0.coverageAmount',
    ],
    [
      'a premium in words',
      { facilityId: null, settings: { ...businessPlans, plans: [{ ...plan, monthlyPremium: 'cheap' }] } },
      'settings.plans.0.monthlyPremium',
    ],
    [
      'a premium of zero',
      { facilityId: null, settings: { ...businessPlans, plans: [{ ...plan, monthlyPremium: '0.00' }] } },
      'settings.plans.0.monthlyPremium',
    ],
    [
      'two plans of one name',
      { facilityId: null, settings: { ...businessPlans, plans: [plan, { ...plan, planId: randomUUID(), name: 'BASIC' }] } },
      'settings.plans.1.name',
    ],
    [
      'thirteen plans',
      {
        facilityId: null,
        settings: {
          plans: Array.from({ length: 13 }, (_, i) => ({ ...plan, planId: randomUUID(), name: `Tier ${i}` })),
          defaultPlanId: null,
          enrollAfterDays: null,
        },
      },
      'settings.plans',
    ],
    ['a default plan that is not one of them', { facilityId: null, settings: { ...businessPlans, defaultPlanId: randomUUID() } }, 'settings.defaultPlanId'],
    [
      'enrolling without a default plan',
      { facilityId: null, settings: { ...businessPlans, defaultPlanId: null, enrollAfterDays: 10 } },
      'settings.defaultPlanId',
    ],
    ['enrolling after 0 days', { facilityId: null, settings: { ...businessPlans, enrollAfterDays: 0 } }, 'settings.enrollAfterDays'],
    ['enrolling after half a day', { facilityId: null, settings: { ...businessPlans, enrollAfterDays: 1.5 } }, 'settings.enrollAfterDays'],
  ])('refuses protection plans with %s: 400 naming the field, nothing written', async (_what, body, field) => {
    const before = await events('business');
    const response = await inject('PUT', '/api/settings/protection', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
    expect(response.json().message).toMatch(new RegExp(`^${field.replaceAll('.', '\\.')}: `));
    expect(await events('business')).toEqual(before);
  });

  it('answers 400 for a bad facilityId query and 404 for a facility that does not exist, writing nothing', async () => {
    const bad = await inject('GET', '/api/settings/protection?facilityId=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('facilityId');
    const unknown = randomUUID();
    expect((await inject('GET', `/api/settings/protection?facilityId=${unknown}`)).statusCode).toBe(404);
    expect((await inject('PUT', '/api/settings/protection', { facilityId: unknown, settings: ownPlans })).statusCode).toBe(404);
    expect(await events(unknown)).toEqual([]);
  });

  it("saves the business's promotions, all of them, and answers them from the read model", async () => {
    const atTheFacility: Promotion = {
      promotionId: randomUUID(),
      name: 'Half off small units',
      terms: { kind: 'percent_off', percent: '50', months: 3 },
      channel: 'desk',
      facilityIds: [facilityId],
      unitSizes: ['5x5', '5x10'],
      startsOn: '2026-12-01',
      endsOn: '2027-01-31',
      active: false,
    };
    const saved = await inject('PUT', '/api/settings/promotions', { promotions: [firstMonthFree, atTheFacility] });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ promotions: [firstMonthFree, atTheFacility] });
    expect((await inject('GET', '/api/settings/promotions')).json()).toEqual({ promotions: [firstMonthFree, atTheFacility] });

    const replaced = await inject('PUT', '/api/settings/promotions', { promotions: [atTheFacility] });
    expect(replaced.json()).toEqual({ promotions: [atTheFacility] });
    const before = await events('business');
    expect((await inject('PUT', '/api/settings/promotions', { promotions: [atTheFacility] })).statusCode).toBe(200);
    expect(await events('business')).toEqual(before);
    expect(before.filter((type) => type === 'promotions_updated')).toHaveLength(2);
  });

  it.each([
    ['a promotion without a name', { ...firstMonthFree, name: '' }, 'promotions.0.name'],
    ['an unknown kind', { ...firstMonthFree, terms: { kind: 'free_lock', months: 1 } }, 'promotions.0.terms.kind'],
    ['a percentage over 100', { ...firstMonthFree, terms: { kind: 'percent_off', percent: '150', months: 1 } }, 'promotions.0.terms.percent'],
    ['an amount off of zero', { ...firstMonthFree, terms: { kind: 'amount_off', amount: '0.00', months: 2 } }, 'promotions.0.terms.amount'],
    ['zero months', { ...firstMonthFree, terms: { kind: 'fixed_price', amount: '1.00', months: 0 } }, 'promotions.0.terms.months'],
    ['an unknown channel', { ...firstMonthFree, channel: 'phone' }, 'promotions.0.channel'],
    ['an unknown unit size', { ...firstMonthFree, unitSizes: ['7x7'] }, 'promotions.0.unitSizes.0'],
    ['an end before the start', { ...firstMonthFree, startsOn: '2027-02-01', endsOn: '2027-01-01' }, 'promotions.0.endsOn'],
    ['a facility that is no id', { ...firstMonthFree, facilityIds: ['riverside'] }, 'promotions.0.facilityIds.0'],
  ])('refuses promotions with %s: 400 naming the field, nothing written', async (_what, promotion, field) => {
    const before = await events('business');
    const response = await inject('PUT', '/api/settings/promotions', { promotions: [promotion] });
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
    expect(await events('business')).toEqual(before);
  });

  it('refuses a promotion at a facility that does not exist, naming the promotion, and writes nothing', async () => {
    const before = await events('business');
    const elsewhere = { ...firstMonthFree, promotionId: randomUUID(), name: 'Elsewhere', facilityIds: [facilityId, randomUUID()] };
    const response = await inject('PUT', '/api/settings/promotions', { promotions: [firstMonthFree, elsewhere] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'promotions.1.facilityIds: no such facility', field: 'promotions.1.facilityIds' });
    expect(await events('business')).toEqual(before);
  });

  it('refuses one promotion id twice', async () => {
    const response = await inject('PUT', '/api/settings/promotions', { promotions: [firstMonthFree, { ...firstMonthFree, name: 'Again' }] });
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('promotions.1.promotionId');
  });

  it('lets managers change both; clerks and auditors may read them but get 403 on a change, and nothing is written', async () => {
    const manager = await platform.signIn('manager');
    expect((await inject('PUT', '/api/settings/protection', { facilityId, settings: ownPlans }, manager)).statusCode).toBe(200);
    expect((await inject('PUT', '/api/settings/promotions', { promotions: [firstMonthFree] }, manager)).statusCode).toBe(200);
    for (const role of ['clerk', 'auditor'] as const) {
      const session = await platform.signIn(role);
      expect((await inject('GET', `/api/settings/protection?facilityId=${facilityId}`, undefined, session)).statusCode).toBe(200);
      expect((await inject('GET', '/api/settings/promotions', undefined, session)).json()).toEqual({ promotions: [firstMonthFree] });
      const before = [await events(facilityId), await events('business')];
      expect((await inject('PUT', '/api/settings/protection', { facilityId, settings: null }, session)).statusCode).toBe(403);
      expect((await inject('PUT', '/api/settings/protection', { facilityId: null, settings: null }, session)).statusCode).toBe(403);
      expect((await inject('PUT', '/api/settings/promotions', { promotions: [] }, session)).statusCode).toBe(403);
      expect([await events(facilityId), await events('business')]).toEqual(before);
    }
  });
});
