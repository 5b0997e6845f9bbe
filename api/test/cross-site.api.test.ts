import { randomUUID } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Changes come from the product's own pages only: every state-changing route, sent by a signed-in
// owner's browser from another origin (another site, or another origin of the same site), is
// refused before its body is read, and nothing is written; a body that is not JSON is refused too.

const SOME_ID = '4b8e8a3e-0000-4000-8000-000000000000';
const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a browser marks a request from elsewhere: with Sec-Fetch-Site, or (older browsers) with Origin alone. */
const foreign: Array<[string, Record<string, string>]> = [
  ['another site', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
  ['another origin of the same site', { origin: 'http://admin.localhost', 'sec-fetch-site': 'same-site' }],
  ['a typed or bookmarked request', { 'sec-fetch-site': 'none' }],
  ['another origin, no Sec-Fetch-Site', { origin: 'https://evil.example' }],
  ['an opaque origin', { origin: 'null' }],
];

describe('changes from another origin', () => {
  let platform: TestPlatform;
  let owner: string;
  let renter: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    owner = await platform.signIn('owner');
    const tag = randomUUID().slice(0, 8);
    const email = `cross-${tag}@example.com`;
    const made = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      headers: { cookie: owner },
      payload: { firstName: 'Cross', lastName: `Site${tag}`, email, phone: '555-0142' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const verified = await platform.api.app.inject({ method: 'POST', url: '/api/customer/verify', payload: { email, phoneLast4: '0142' } });
    expect(verified.statusCode, verified.body).toBe(200);
    renter = String(verified.headers['set-cookie']).split(';')[0]!;
  });
  afterAll(async () => {
    await platform?.close();
  });

  const changingRoutes = () =>
    platform.api.app.registeredRoutes
      .filter((route) => CHANGING.has(route.method) && route.config?.answersCrossSite !== true)
      .map((route) => ({ method: route.method as Method, url: route.url.replace(/:\w+/g, SOME_ID) }));

  it('refuses every state-changing route with 403 before reading it, and writes nothing', async () => {
    const routes = changingRoutes();
    expect(routes.length).toBeGreaterThan(60);
    const before = await platform.api.store.newestPosition();
    for (const [how, headers] of foreign) {
      for (const { method, url } of routes) {
        // A staff cookie and a renter's at once: whoever is signed in, the browser's mark decides.
        const answer = await platform.api.app.inject({
          method,
          url,
          headers: { ...headers, cookie: `${owner}; ${renter}`, 'content-type': 'application/json' },
          payload: '{}',
        });
        expect(answer.statusCode, `${how}: ${method} ${url} ${answer.body}`).toBe(403);
        expect(answer.json().message).toBe('This change must be made from the product’s own pages');
      }
    }
    expect(await platform.api.store.newestPosition()).toEqual(before);
  });

  it('refuses a body that is not JSON from our own pages too (415), as a cross-site form or beacon would send it', async () => {
    const before = await platform.api.store.newestPosition();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      for (const { method, url } of [
        { method: 'POST' as const, url: '/api/customers' },
        { method: 'POST' as const, url: '/api/staff' },
        { method: 'POST' as const, url: '/api/customer/verify' },
      ]) {
        const answer = await platform.api.app.inject({
          method,
          url,
          headers: { cookie: owner, 'sec-fetch-site': 'same-origin', 'content-type': type },
          payload: '',
        });
        expect(answer.statusCode, `${type} ${url}`).toBe(415);
        expect(answer.json().message).toBe('The request body must be JSON (Content-Type: application/json)');
      }
    }
    expect(await platform.api.store.newestPosition()).toEqual(before);
  });

  it("takes the same change from our own pages, and from a caller that is not a browser (no Origin, as a gateway or Stripe's webhook)", async () => {
    const create = (headers: Record<string, string>) =>
      platform.api.app.inject({
        method: 'POST',
        url: '/api/customers',
        headers: { cookie: owner, ...headers },
        payload: { firstName: 'Own', lastName: `Page${randomUUID().slice(0, 8)}`, email: `own-${randomUUID().slice(0, 8)}@example.com` },
      });
    expect((await create({ 'sec-fetch-site': 'same-origin', origin: 'http://localhost' })).statusCode).toBe(201);
    expect((await create({ origin: 'http://localhost:80', host: 'localhost' })).statusCode).toBe(201);
    expect((await create({})).statusCode).toBe(201);
  });

  it('asks to confirm a sign-out posted by another site, and signs out from our own page', async () => {
    const elsewhere = await platform.api.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie: owner, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.body).toContain('Sign out?');
    expect((await platform.api.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: owner } })).statusCode).toBe(200);
  });
});
