import { randomUUID } from 'node:crypto';
import { type BillingSettings, defaultBillingSettings } from '@storage/contracts/billing';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const business: BillingSettings = {
  billingDay: 'first',
  issueDaysBefore: 7,
  graceDays: 5,
  lateFee: { kind: 'fixed', amount: '30.00' },
  adminFee: '20.00',
  prorateFirstMonth: true,
  billNextMonthAfterDay: 20,
  rentChangeNoticeDays: 30,
  salesTax: { rent: '8.875', adminFee: '0', lateFee: '0', merchandise: '0' },
};

const ownOfFacility: BillingSettings = {
  billingDay: 'anniversary',
  issueDaysBefore: 3,
  graceDays: 10,
  lateFee: { kind: 'percent', percent: '12.5', minimum: '15.00' },
  adminFee: '0.00',
  prorateFirstMonth: false,
  billNextMonthAfterDay: null,
  rentChangeNoticeDays: 45,
  salesTax: { rent: '0', adminFee: '0', lateFee: '0', merchandise: '0' },
};

describe('billing settings API', () => {
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
    expect((await platform.api.app.inject({ method: 'GET', url: '/api/settings/billing' })).statusCode).toBe(401);
    expect((await platform.api.app.inject({ method: 'PUT', url: '/api/settings/billing', payload: { facilityId: null, settings: null } })).statusCode).toBe(
      401,
    );
  });

  it("shows the defaults with the Payments card's late fee before anything is saved", async () => {
    const response = await inject('GET', `/api/settings/billing?facilityId=${facilityId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ business: null, facility: null, effective: defaultBillingSettings });
  });

  it("saves the business's settings; a fixed fee is also the Payments card's late fee, and the Payments card's fee is the fixed fee", async () => {
    const saved = await inject('PUT', '/api/settings/billing', { facilityId: null, settings: business });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ business, facility: null, effective: business });
    expect((await inject('GET', '/api/settings')).json().payments.lateFeeAmount).toBe('30.00');
    expect((await inject('GET', `/api/settings/billing?facilityId=${facilityId}`)).json()).toEqual({ business, facility: null, effective: business });

    const payments = await inject('PUT', '/api/settings/payments', { automaticCharging: true, lateFeeAmount: '35.00' });
    expect(payments.statusCode).toBe(200);
    const withNewFee = { ...business, lateFee: { kind: 'fixed', amount: '35.00' } };
    expect((await inject('GET', '/api/settings/billing')).json()).toEqual({ business: withNewFee, facility: null, effective: withNewFee });
    // Saving the same settings again records nothing.
    const before = await events('business');
    expect((await inject('PUT', '/api/settings/billing', { facilityId: null, settings: withNewFee })).statusCode).toBe(200);
    expect(await events('business')).toEqual(before);
  });

  it("gives a facility its own settings, and null follows the business's again", async () => {
    const own = await inject('PUT', '/api/settings/billing', { facilityId, settings: ownOfFacility });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ facility: ownOfFacility, effective: ownOfFacility });
    expect(own.json().business.adminFee).toBe('20.00');
    expect((await inject('GET', `/api/settings/billing?facilityId=${facilityId}`)).json().effective).toEqual(ownOfFacility);
    expect((await inject('GET', '/api/settings/billing')).json().facility).toBeNull();

    const follow = await inject('PUT', '/api/settings/billing', { facilityId, settings: null });
    expect(follow.statusCode).toBe(200);
    expect(follow.json().facility).toBeNull();
    expect(follow.json().effective).toEqual(follow.json().business);
    expect(await events(facilityId)).toEqual(['billing_settings_updated', 'billing_settings_updated']);
  });

  it.each([
    ['a missing facilityId', { settings: business }, 'facilityId'],
    ['a facilityId that is no id', { facilityId: 'riverside', settings: business }, 'facilityId'],
    ['an unknown billing day', { facilityId: null, settings: { ...business, billingDay: 'fifteenth' } }, 'settings.billingDay'],
    ['negative grace days', { facilityId: null, settings: { ...business, graceDays: -1 } }, 'settings.graceDays'],
    ['issue days past 28', { facilityId: null, settings: { ...business, issueDaysBefore: 29 } }, 'settings.issueDaysBefore'],
    ['a late fee in words', { facilityId: null, settings: { ...business, lateFee: { kind: 'fixed', amount: 'lots' } } }, 'settings.lateFee.amount'],
    [
      'a percent fee of zero',
      { facilityId: null, settings: { ...business, lateFee: { kind: 'percent', percent: '0', minimum: '5.00' } } },
      'settings.lateFee.percent',
    ],
    ['a next-month day of 31', { facilityId: null, settings: { ...business, billNextMonthAfterDay: 31 } }, 'settings.billNextMonthAfterDay'],
    ['a missing field', { facilityId: null, settings: { ...business, prorateFirstMonth: undefined } }, 'settings.prorateFirstMonth'],
    ['a sales tax over 25%', { facilityId: null, settings: { ...business, salesTax: { ...business.salesTax, rent: '25.001' } } }, 'settings.salesTax.rent'],
    ['a negative sales tax', { facilityId: null, settings: { ...business, salesTax: { ...business.salesTax, adminFee: '-1' } } }, 'settings.salesTax.adminFee'],
    [
      'a sales tax with 4 decimals',
      { facilityId: null, settings: { ...business, salesTax: { ...business.salesTax, lateFee: '8.8755' } } },
      'settings.salesTax.lateFee',
    ],
    ['a sales tax as a number', { facilityId: null, settings: { ...business, salesTax: { ...business.salesTax, rent: 8 } } }, 'settings.salesTax.rent'],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_what, body, field) => {
    const before = await events('business');
    const response = await inject('PUT', '/api/settings/billing', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
    expect(await events('business')).toEqual(before);
  });

  it('keeps a sales tax rate per charge kind; settings sent without one tax nothing', async () => {
    const taxed = { ...business, salesTax: { rent: '8.875', adminFee: '25', lateFee: '0.5' } };
    const saved = await inject('PUT', '/api/settings/billing', { facilityId, settings: taxed });
    expect(saved.statusCode).toBe(200);
    // Sent without the merchandise rate (settings saved before it existed): no tax on merchandise.
    expect(saved.json().effective.salesTax).toEqual({ rent: '8.875', adminFee: '25', lateFee: '0.5', merchandise: '0' });
    const { salesTax: _none, ...withoutTax } = business;
    const untaxed = await inject('PUT', '/api/settings/billing', { facilityId, settings: withoutTax });
    expect(untaxed.statusCode).toBe(200);
    expect(untaxed.json().effective.salesTax).toEqual({ rent: '0', adminFee: '0', lateFee: '0', merchandise: '0' });
    expect((await inject('PUT', '/api/settings/billing', { facilityId, settings: null })).statusCode).toBe(200);
  });

  it('answers 400 for a bad facilityId query and 404 for a facility that does not exist, writing nothing', async () => {
    const bad = await inject('GET', '/api/settings/billing?facilityId=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('facilityId');
    const unknown = randomUUID();
    expect((await inject('GET', `/api/settings/billing?facilityId=${unknown}`)).statusCode).toBe(404);
    expect((await inject('PUT', '/api/settings/billing', { facilityId: unknown, settings: business })).statusCode).toBe(404);
    expect(await events(unknown)).toEqual([]);
  });

  it('lets managers change them; clerks and auditors may read them but get 403 on a change', async () => {
    const manager = await platform.signIn('manager');
    expect((await inject('PUT', '/api/settings/billing', { facilityId, settings: ownOfFacility }, manager)).statusCode).toBe(200);
    for (const role of ['clerk', 'auditor'] as const) {
      const session = await platform.signIn(role);
      expect((await inject('GET', `/api/settings/billing?facilityId=${facilityId}`, undefined, session)).statusCode).toBe(200);
      const before = await events(facilityId);
      expect((await inject('PUT', '/api/settings/billing', { facilityId, settings: null }, session)).statusCode).toBe(403);
      expect((await inject('PUT', '/api/settings/billing', { facilityId: null, settings: business }, session)).statusCode).toBe(403);
      expect(await events(facilityId)).toEqual(before);
    }
  });

  it('says in the audit log what billing settings each scope has now', async () => {
    const response = await inject('GET', '/api/audit/events?type=billing_settings_updated&sort=recordedAt&order=desc&pageSize=20');
    expect(response.statusCode).toBe(200);
    const descriptions: string[] = response.json().map((e: { description: string }) => e.description);
    expect(descriptions).toContain(
      'Billing settings saved: due on the 1st, invoiced 7 days before; late fee $30.00 after 5 days; admin fee $20.00; first month prorated; move-ins after the 20th also pay next month',
    );
    const facilityName = (await inject('GET', '/api/facilities')).json().find((f: { id: string }) => f.id === facilityId).name;
    expect(descriptions).toContain(`${facilityName} uses the business's billing settings again`);
  });
});
