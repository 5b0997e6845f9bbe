import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Roles hold on the route the router matched, whatever the spelling of the URL: these tests
// generate the spellings of EVERY registered route and send them with each kind of session.

const SOME_ID = '4b8e8a3e-0000-4000-8000-000000000000';
const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Routes that are not the staff's: anyone (or a renter's portal session) may call them. */
const NOT_STAFF_ROUTES = new Set([
  'GET /api/health/live',
  'GET /api/health/ready',
  'POST /api/auth/login',
  'POST /api/auth/two-factor',
  'GET /api/login',
  'GET /api/logout',
  'POST /api/auth/logout',
  'POST /api/logout',
  'GET /api/public/units/available',
  'GET /api/public/units/:id/move-in-quote',
  'GET /api/public/units/move-in-summaries',
  'POST /api/public/waitlist',
  'POST /api/public/reservations',
  'POST /api/public/reservations/confirm',
  'POST /api/public/rentals/offer',
  'POST /api/public/rentals/checkout',
  'POST /api/public/rentals/complete',
  'POST /api/public/rentals/status',
  'POST /api/public/rentals/test-payment',
  'POST /api/public/rentals/agreement',
  'POST /api/public/rentals/signature',
  'GET /api/customer/session',
  'POST /api/customer/verify',
  'POST /api/customer/verify-code',
  'POST /api/customer/sign-out',
  'GET /api/customer/profile',
  'GET /api/customer/account',
  'GET /api/customer/invoices',
  'GET /api/customer/units',
  'GET /api/customer/access-logs',
  'GET /api/customer/contact',
  'GET /api/customer/ledger',
  'GET /api/customer/statement.pdf',
  'GET /api/customer/payments',
  'GET /api/customer/payments/:paymentId/receipt.pdf',
  'GET /api/customer/message-preferences',
  'PUT /api/customer/message-preferences',
  'GET /api/payments/config',
  'POST /api/create-payment-intent',
  'POST /api/customer/account-payment-intent',
  'GET /api/customer/payment-methods',
  'POST /api/customer/payment-methods/setup',
  'POST /api/customer/payment-methods',
  'DELETE /api/customer/payment-methods/:id',
  'PUT /api/customer/autopay',
  'GET /api/customer/leases/:id/signature',
  'POST /api/customer/leases/:id/signature',
  'GET /api/customer/leases/:id/signed.pdf',
  'GET /api/customer/leases/:id/protection',
  'POST /api/customer/leases/:id/protection',
  'POST /api/test-provider/payment-intents/:id/confirm',
  'POST /api/stripe/webhook/simulate',
  'POST /api/stripe/webhook',
  'GET /api/openapi.json',
  'GET /api/docs/',
  'GET /api/docs/js/scalar.js',
]);

const encode = (char: string) => `%${char.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`;

/** One URL of the route (its parameters filled in) and the other spellings a router might still match. */
function spellingsOf(pattern: string): string[] {
  const path = pattern.replace(/:\w+/g, SOME_ID);
  const spellings = new Set<string>([
    path,
    `${path}/`,
    `${path}//`,
    `${path}?x=1`,
    `${path};x=1`,
    `/${path}`,
    path.replaceAll('/', '//'),
    path.toUpperCase(),
    path.replace('/api/', '/API/'),
    path.replace('/api/', '/./api/'),
    path.replace('/api/', '/api/./'),
    path.replace('/api/', '/api/x/../'),
    path.replace('/api/', '/x/../api/'),
    path.replace(/\/(?=[^/]*$)/, '/%2F'),
    path.replace(/\/(?=[^/]*$)/, '/%2f'),
  ]);
  // Every letter, percent-encoded (in both cases of hex), one at a time and all at once.
  for (let i = 0; i < path.length; i++) {
    if (!/[a-z]/i.test(path[i]!)) continue;
    spellings.add(path.slice(0, i) + encode(path[i]!) + path.slice(i + 1));
    spellings.add(path.slice(0, i) + encode(path[i]!).toLowerCase() + path.slice(i + 1));
  }
  spellings.add(path.replace(/[a-z]/gi, encode));
  return [...spellings];
}

describe('roles on the matched route, under every spelling of every route', () => {
  let platform: TestPlatform;
  let owner: string;
  let auditor: string;
  let renter: string;
  let routes: Array<{ method: Method; url: string; ownAccount: boolean }>;

  const send = (method: Method, url: string, cookie?: string) =>
    platform.api.app.inject({ method, url, ...(CHANGING.has(method) ? { payload: {} } : {}), headers: cookie ? { cookie } : {} });

  beforeAll(async () => {
    platform = await startTestPlatform();
    owner = await platform.signIn('owner');
    auditor = await platform.signIn('auditor');
    const email = `spelled-${Date.now()}@example.com`;
    const customer = await send('POST', '/api/customers', owner);
    expect(customer.statusCode).toBe(400);
    const created = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      headers: { cookie: owner },
      payload: { firstName: 'Sam', lastName: 'Spelled', email, phone: '555-010-4321', status: 'active' },
    });
    expect(created.statusCode).toBe(201);
    const verified = await platform.api.app.inject({ method: 'POST', url: '/api/customer/verify', payload: { email, phoneLast4: '4321' } });
    expect(verified.statusCode).toBe(200);
    renter = [verified.headers['set-cookie']]
      .flat()
      .find((c) => c?.startsWith('storage_session='))!
      .split(';')[0]!;
    routes = platform.api.app.registeredRoutes
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS')
      .map((r) => ({ method: r.method as Method, url: r.url, ownAccount: r.config?.ownAccount === true }));
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('sees every route the API registers', () => {
    expect(routes.length).toBeGreaterThan(60);
    for (const key of NOT_STAFF_ROUTES)
      expect(
        routes.some((r) => `${r.method} ${r.url}` === key),
        key,
      ).toBe(true);
  });

  it("never lets an auditor's change reach a handler: 403, 404 (or 429), and nothing appended", async () => {
    // Nothing still on its way from what came before (a lease's gate code is the access reaction's, after the command answered).
    expect(await platform.reactionsCaughtUp()).toBe(true);
    const head = await platform.api.store.newestPosition();
    const reached: string[] = [];
    for (const route of routes.filter((r) => CHANGING.has(r.method) && !r.ownAccount)) {
      for (const url of spellingsOf(route.url)) {
        const response = await send(route.method, url, auditor);
        if (![403, 404, 429].includes(response.statusCode)) reached.push(`${route.method} ${url} → ${response.statusCode}`);
      }
    }
    expect(reached).toEqual([]);
    expect(await platform.api.store.newestPosition()).toEqual(head);
  });

  it('keeps signed-out and renter sessions off every staff route: 401 or 404, never an answer', async () => {
    const reached: string[] = [];
    for (const route of routes.filter((r) => !NOT_STAFF_ROUTES.has(`${r.method} ${r.url}`))) {
      for (const url of spellingsOf(route.url)) {
        for (const [who, cookie] of [
          ['signed out', undefined],
          ['renter', renter],
        ] as const) {
          const response = await send(route.method, url, cookie);
          if (response.statusCode !== 401 && response.statusCode !== 404) reached.push(`${who}: ${route.method} ${url} → ${response.statusCode}`);
        }
      }
    }
    expect(reached).toEqual([]);
  });
});
