import { randomUUID } from 'node:crypto';
import { builtFrontEnds } from '@storage/testing/browser';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Answers with personal data are never kept by a browser or a proxy: every API answer that does
// not say otherwise carries `Cache-Control: no-store` (one hook), errors included.

describe('Cache-Control: no-store on API answers', () => {
  let platform: TestPlatform;
  let staff: string;
  let renter: string;

  beforeAll(async () => {
    platform = await startTestPlatform();
    staff = await platform.signIn('owner');
    const email = `renter-${randomUUID().slice(0, 8)}@example.test`;
    const created = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      headers: { cookie: staff },
      payload: { firstName: 'Nora', lastName: 'Renter', email, phone: '555-010-7777' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const verified = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customer/verify',
      payload: { email, phoneLast4: '7777' },
      remoteAddress: '10.9.0.1',
    });
    expect(verified.statusCode, verified.body).toBe(200);
    renter = sessionCookie(verified.headers['set-cookie']);
  });
  afterAll(async () => {
    await platform?.close();
  });

  const answers: [string, 'staff' | 'renter' | 'nobody', 'GET' | 'POST', string, number][] = [
    ['staff: the signed-in user', 'staff', 'GET', '/api/auth/user', 200],
    ['staff: the customer list', 'staff', 'GET', '/api/customers', 200],
    ['staff: a CSV export', 'staff', 'GET', '/api/audit/events.csv', 200],
    ['staff: a validation error', 'staff', 'GET', '/api/customers?page=x', 400],
    ['portal: the renter profile', 'renter', 'GET', '/api/customer/profile', 200],
    ['portal: the renter invoices', 'renter', 'GET', '/api/customer/invoices', 200],
    ['public: available units', 'nobody', 'GET', '/api/public/units/available', 200],
    ['signed out: 401', 'nobody', 'GET', '/api/customers', 401],
    ['unknown route: 404', 'nobody', 'GET', '/api/no-such-thing', 404],
    ['sign-in answer', 'nobody', 'POST', '/api/auth/login', 401],
  ];
  for (const [name, who, method, url, status] of answers) {
    it(`${name}: ${method} ${url}`, async () => {
      const cookie = who === 'staff' ? staff : who === 'renter' ? renter : undefined;
      const response = await platform.api.app.inject({
        method,
        url,
        headers: cookie ? { cookie } : {},
        ...(method === 'POST' ? { payload: { email: 'nobody@staff.test', password: 'not the password' } } : {}),
        remoteAddress: '10.9.0.2',
      });
      expect(response.statusCode, response.body).toBe(status);
      expect(response.headers['cache-control']).toBe('no-store');
    });
  }
});

describe('the built apps keep their own caching', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ staticRoots: builtFrontEnds });
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('fingerprinted assets stay immutable and index.html is revalidated, not no-store', async () => {
    const index = await platform.api.app.inject({ method: 'GET', url: '/login' });
    expect(index.headers['cache-control']).toBe('no-cache');
    const asset = /\/console-assets\/[^"]+\.js/.exec(index.body)?.[0];
    expect(asset).toBeDefined();
    const script = await platform.api.app.inject({ method: 'GET', url: asset! });
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toMatch(/immutable/);
  });
});
