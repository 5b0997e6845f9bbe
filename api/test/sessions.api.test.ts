import { randomUUID } from 'node:crypto';
import { type ApiServer, createApiServer } from '@storage/api/server';
import { readConfig } from '@storage/platform/config';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Sessions live on the server: a copy of a cookie stops working the moment its session ends
// (sign-out, a password change, expiry), on every API instance of the database.

let nextIp = 1;
/** Each test gets its own client address, so the sign-in limits of one test never touch another. */
const freshIp = () => `10.7.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

describe('server-side sessions', () => {
  let platform: TestPlatform;
  let replica: ApiServer;

  const inject = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    options: { cookie?: string; body?: object; headers?: Record<string, string>; ip?: string } = {},
  ) =>
    platform.api.app.inject({
      method,
      url,
      headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
      ...(options.body ? { payload: options.body } : {}),
      remoteAddress: options.ip ?? freshIp(),
    });
  const whoAmI = async (cookie: string, api: ApiServer = platform.api) =>
    (await api.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode;
  async function signInAs(credentials: { email: string; password: string }) {
    const response = await inject('POST', '/api/auth/login', { body: credentials });
    expect(response.statusCode, response.body).toBe(200);
    return sessionCookie(response.headers['set-cookie']);
  }
  async function newRenter() {
    const staff = await platform.signIn('manager');
    const email = `renter-${randomUUID().slice(0, 8)}@example.test`;
    const created = await inject('POST', '/api/customers', { cookie: staff, body: { firstName: 'Rita', lastName: 'Renter', email, phone: '555-010-4242' } });
    expect(created.statusCode, created.body).toBe(201);
    const verified = await inject('POST', '/api/customer/verify', { body: { email, phoneLast4: '4242' } });
    expect(verified.statusCode, verified.body).toBe(200);
    return sessionCookie(verified.headers['set-cookie']);
  }

  beforeAll(async () => {
    platform = await startTestPlatform();
    // A second API instance (another replica) on the same database, with the same cookie key.
    replica = await createApiServer({
      config: readConfig({}),
      databaseUrl: platform.database.url,
      sessionKey: platform.sessionKey,
      queuePrefix: `test-${platform.database.name}`,
    });
  });
  afterAll(async () => {
    await replica?.close();
    await platform?.close();
  });

  it('a copied staff cookie works until sign-out, then answers 401 on every API instance', async () => {
    const cookie = await platform.signIn('manager');
    const copy = cookie;
    expect([await whoAmI(copy), await whoAmI(copy, replica)]).toEqual([200, 200]);
    const out = await inject('POST', '/api/auth/logout', { cookie });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.find((c) => c.name === 'storage_session')?.value ?? '').toBe('');
    expect([await whoAmI(copy), await whoAmI(copy, replica)]).toEqual([401, 401]);
  });

  it('signing out on one API instance ends the session on the other at once', async () => {
    const cookie = await platform.signIn('clerk');
    expect(await whoAmI(cookie, replica)).toBe(200);
    expect((await replica.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } })).statusCode).toBe(204);
    expect([await whoAmI(cookie), await whoAmI(cookie, replica)]).toEqual([401, 401]);
  });

  it('a password change ends every other session of that member; the one that changed it stays signed in', async () => {
    const credentials = await platform.createStaff('manager');
    const laptop = await signInAs(credentials);
    const phone = await signInAs(credentials);
    const stranger = await platform.signIn('manager');
    expect([await whoAmI(laptop), await whoAmI(phone)]).toEqual([200, 200]);
    const changed = await inject('PUT', '/api/auth/password', {
      cookie: laptop,
      body: { currentPassword: credentials.password, newPassword: 'a brand new passphrase', confirmPassword: 'a brand new passphrase' },
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expect([await whoAmI(laptop), await whoAmI(phone), await whoAmI(phone, replica)]).toEqual([200, 401, 401]);
    // Another member's session is not touched.
    expect(await whoAmI(stranger)).toBe(200);
  });

  it('an expired session stops working on the server, whatever the cookie says', async () => {
    const cookie = await platform.signIn('clerk');
    expect(await whoAmI(cookie)).toBe(200);
    const me = (await inject('GET', '/api/auth/user', { cookie })).json() as { id: string };
    await platform.api.pool.query(sql.unsafe`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE kind = 'staff' AND subject_id = ${me.id}`);
    expect(await whoAmI(cookie)).toBe(401);
  });

  it('the cookie carries no staff or customer id, only a token; the table keeps only its hash', async () => {
    const cookie = await platform.signIn('clerk');
    const me = (await inject('GET', '/api/auth/user', { cookie })).json() as { id: string };
    const ids = await platform.api.pool.anyFirst(sql.unsafe`SELECT id FROM sessions WHERE subject_id = ${me.id}`);
    expect(ids).toHaveLength(1);
    expect(decodeURIComponent(cookie)).not.toContain(String(ids[0]));
  });

  it('a copied portal cookie answers 401 after the renter signs out of the portal', async () => {
    const cookie = await newRenter();
    const copy = cookie;
    expect((await inject('GET', '/api/customer/profile', { cookie: copy })).statusCode).toBe(200);
    expect((await replica.app.inject({ method: 'GET', url: '/api/customer/profile', headers: { cookie: copy } })).statusCode).toBe(200);
    expect((await inject('POST', '/api/customer/sign-out', { cookie })).statusCode).toBe(204);
    expect((await inject('GET', '/api/customer/profile', { cookie: copy })).statusCode).toBe(401);
    expect((await replica.app.inject({ method: 'GET', url: '/api/customer/profile', headers: { cookie: copy } })).statusCode).toBe(401);
  });

  describe("GET /api/logout (the console's Logout button)", () => {
    const crossSite: Record<string, Record<string, string>> = {
      'Sec-Fetch-Site: cross-site': { 'sec-fetch-site': 'cross-site' },
      'Sec-Fetch-Site: same-site': { 'sec-fetch-site': 'same-site' },
      'another Origin (no Sec-Fetch-Site)': { origin: 'https://evil.example', host: 'storage.example' },
      'another Referer (no Sec-Fetch-Site)': { referer: 'https://evil.example/page', host: 'storage.example' },
      'no signal at all': {},
    };
    for (const [name, headers] of Object.entries(crossSite)) {
      it(`does not sign out from another site (${name}): it asks instead`, async () => {
        const cookie = await platform.signIn('clerk');
        const out = await inject('GET', '/api/logout', { cookie, headers });
        expect(out.statusCode).toBe(200);
        expect(out.headers['content-type']).toMatch(/text\/html/);
        expect(out.body).toContain('<form method="post" action="/api/logout">');
        expect(out.cookies.find((c) => c.name === 'storage_session')).toBeUndefined();
        expect(await whoAmI(cookie)).toBe(200);
      });
    }

    const sameOrigin: Record<string, Record<string, string>> = {
      'Sec-Fetch-Site: same-origin': { 'sec-fetch-site': 'same-origin' },
      'Sec-Fetch-Site: none (typed in the address bar)': { 'sec-fetch-site': 'none' },
      'our own Referer (older browsers)': { referer: 'https://storage.example/customers', host: 'storage.example' },
    };
    for (const [name, headers] of Object.entries(sameOrigin)) {
      it(`signs out when the click comes from our pages (${name})`, async () => {
        const cookie = await platform.signIn('clerk');
        const out = await inject('GET', '/api/logout', { cookie, headers });
        expect([out.statusCode, out.headers.location]).toEqual([302, '/']);
        expect(await whoAmI(cookie)).toBe(401);
      });
    }

    it('the confirmation form signs out with a same-origin POST', async () => {
      const cookie = await platform.signIn('clerk');
      const out = await platform.api.app.inject({
        method: 'POST',
        url: '/api/logout',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'http://storage.example', host: 'storage.example' },
        payload: '',
      });
      expect([out.statusCode, out.headers.location]).toEqual([303, '/']);
      expect(await whoAmI(cookie)).toBe(401);
    });
  });

  it('an auditor (read-only) can still sign out', async () => {
    const cookie = await platform.signIn('auditor');
    expect((await inject('POST', '/api/auth/logout', { cookie })).statusCode).toBe(204);
    expect(await whoAmI(cookie)).toBe(401);
  });
});

describe('sign-in limits count failures only, per account and address and per address', () => {
  let platform: TestPlatform;
  const login = (body: object, ip: string) => platform.api.app.inject({ method: 'POST', url: '/api/auth/login', payload: body, remoteAddress: ip });

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('eleven correct sign-ins in a row all succeed', async () => {
    const credentials = await platform.createStaff('clerk');
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await login(credentials, '10.8.0.1')).statusCode);
    expect(codes).toEqual(Array(11).fill(200));
  });

  it('wrong passwords across many accounts from one address (password spraying) are refused past the per-address limit', async () => {
    const accounts = await Promise.all(Array.from({ length: 3 }, () => platform.createStaff('clerk')));
    const emails = [...accounts.map((a) => a.email), ...Array.from({ length: 17 }, (_, i) => `sprayed-${i}@staff.test`)];
    const codes: number[] = [];
    for (const email of emails) codes.push((await login({ email, password: 'Summer2026!' }, '10.8.0.2')).statusCode);
    expect(codes).toEqual(Array(20).fill(401));
    // The 21st guess, on yet another account, and even the right password, are refused from that address.
    const next = await login({ email: 'one-more@staff.test', password: 'Summer2026!' }, '10.8.0.2');
    expect(next.statusCode).toBe(429);
    expect(next.json().message).toMatch(/Too many sign-in attempts/);
    expect((await login(accounts[0]!, '10.8.0.2')).statusCode).toBe(429);
    // The accounts themselves still open from elsewhere.
    expect((await login(accounts[0]!, '10.8.0.3')).statusCode).toBe(200);
  });

  it('failures for one account from elsewhere do not lock that account out of the browser it signs in from', async () => {
    const credentials = await platform.createStaff('manager');
    const first = await login(credentials, '10.8.0.5');
    const device = first.cookies.find((c) => c.name === 'storage_device');
    expect(device).toBeDefined();
    for (let i = 0; i < 10; i++) expect((await login({ email: credentials.email, password: `wrong-${i}` }, '10.8.0.4')).statusCode).toBeOneOf([401, 429]);
    expect((await login(credentials, '10.8.0.4')).statusCode).toBe(429);
    const own = await platform.api.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: credentials,
      remoteAddress: '10.8.0.5',
      headers: { cookie: `storage_device=${device!.value}` },
    });
    expect(own.statusCode).toBe(200);
  });

  it('counts on every API instance alike (the failures are rows in PostgreSQL)', async () => {
    const replica = await createApiServer({
      config: readConfig({}),
      databaseUrl: platform.database.url,
      sessionKey: platform.sessionKey,
      queuePrefix: `test-${platform.database.name}`,
    });
    try {
      const credentials = await platform.createStaff('clerk');
      // Five failures, alternating instances, start the account's slow-down on both.
      for (let i = 0; i < 5; i++) {
        const app = i % 2 === 0 ? platform.api.app : replica.app;
        expect(
          (
            await app.inject({
              method: 'POST',
              url: '/api/auth/login',
              payload: { email: credentials.email, password: `wrong-${i}` },
              remoteAddress: '10.8.0.6',
            })
          ).statusCode,
        ).toBe(401);
      }
      expect((await replica.app.inject({ method: 'POST', url: '/api/auth/login', payload: credentials, remoteAddress: '10.8.0.6' })).statusCode).toBe(429);
    } finally {
      await replica.close();
    }
  });
});
