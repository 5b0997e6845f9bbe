import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// PostgreSQL refuses a NUL character in text, and an unpaired surrogate is no character at all:
// every route refuses such input with a 400 naming the field, before any query runs.

const NUL = '\u0000';
const LONE = '\ud800';
const SOME_ID = '4b8e8a3e-0000-4000-8000-000000000000';

describe('text the database cannot store', () => {
  let platform: TestPlatform;
  let owner: string;
  type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  const send = (method: Method, url: string, payload?: unknown, cookie = owner) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie } });

  beforeAll(async () => {
    platform = await startTestPlatform();
    owner = await platform.signIn('owner');
  });
  afterAll(async () => {
    await platform?.close();
  });

  const q = encodeURIComponent;
  // A URL cannot carry a lone surrogate (its UTF-8 bytes %ED%A0%80 decode to U+FFFD), a JSON body can.
  const inUrls = (bad: string): Array<[Method, string, unknown, string]> => [
    ['GET', `/api/customers?search=${q(bad)}`, undefined, 'search'],
    ['GET', `/api/units?search=x${q(bad)}`, undefined, 'search'],
    ['GET', `/api/leases?search=${q(bad)}`, undefined, 'search'],
    ['GET', `/api/leases/counts?search=${q(bad)}`, undefined, 'search'],
    ['GET', `/api/leases/export.csv?search=${q(bad)}`, undefined, 'search'],
    ['GET', `/api/audit/events?actor=${q(bad)}`, undefined, 'actor'],
    ['GET', `/api/audit/events.csv?stream=${q(bad)}`, undefined, 'stream'],
    ['GET', `/api/invoices?search=${q(bad)}`, undefined, 'search'],
    ['GET', `/api/activities?search=${q(bad)}`, undefined, 'search'],
    ['GET', `/api/customers/${q(`${SOME_ID}${bad}`)}`, undefined, 'id'],
  ];
  const inBodies = (bad: string): Array<[Method, string, unknown, string]> => [
    ['POST', '/api/customers', { firstName: `Ada${bad}`, lastName: 'L', email: 'ada@example.com' }, 'firstName'],
    ['POST', '/api/facilities', { name: 'F', address: `1 Road${bad}` }, 'address'],
    ['PATCH', `/api/customers/${SOME_ID}`, { notes: { nested: [bad] } }, 'notes.nested.0'],
    ['PUT', '/api/settings/business-profile', { [`name${bad}`]: 'x' }, `name\ufffd`],
    ['POST', '/api/public/waitlist', { firstName: bad }, 'firstName'],
    ['POST', '/api/customer/verify', { email: `a${bad}@example.com`, phoneLast4: '1234' }, 'email'],
    ['POST', '/api/auth/login', { email: 'a@example.com', password: `pass${bad}` }, 'password'],
  ];

  for (const [name, bad] of [
    ['a NUL character', NUL],
    ['an unpaired surrogate', LONE],
  ] as const) {
    it(`refuses ${name} in a query, a path parameter or a body with 400 naming the field, writing nothing`, async () => {
      // Nothing still on its way from what came before (a lease's gate code is the access reaction's, after the command answered).
      expect(await platform.reactionsCaughtUp()).toBe(true);
      const head = await platform.api.store.newestPosition();
      for (const [method, url, payload, field] of [...(bad === NUL ? inUrls(bad) : []), ...inBodies(bad)]) {
        const response = await send(method, url, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(400);
        expect(response.json(), `${method} ${url}`).toEqual({ message: `${field}: must not contain a NUL character or an unpaired surrogate`, field });
      }
      expect(await platform.api.store.newestPosition()).toEqual(head);
    });
  }

  it('reads the bytes of a surrogate in a URL as U+FFFD, not as a failure', async () => {
    for (const url of ['/api/customers?search=%ED%A0%80', '/api/leases/export.csv?search=%ED%A0%80', `/api/customers/${SOME_ID}%ED%A0%80`]) {
      expect((await send('GET', url)).statusCode, url).toBeLessThan(500);
    }
  });

  it('refuses it in a header (an Idempotency-Key, an address reach the database)', async () => {
    const response = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      payload: { firstName: 'A', lastName: 'B', email: 'ab@example.com' },
      headers: { cookie: owner, 'idempotency-key': 'ok', 'x-note': `a${LONE}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('x-note');
  });
});
