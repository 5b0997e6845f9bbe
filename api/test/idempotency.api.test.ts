import { bodyHashOf } from '@storage/api/http/idempotency';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('Idempotency-Key on commands', () => {
  let platform: TestPlatform;
  let cookie: string;
  const post = (payload: object, key?: string, url = '/api/customers') =>
    platform.api.app.inject({ method: 'POST', url, payload, headers: { cookie, ...(key ? { 'idempotency-key': key } : {}) } });

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers a repeated key with the first result and appends nothing more', async () => {
    const body = { firstName: 'Idem', lastName: 'Potent', email: 'idem@example.com' };
    const first = await post(body, 'create-idem-1');
    const second = await post(body, 'create-idem-1');
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    const added = (await platform.api.store.readAll({ limit: 1000 })).filter((e) => e.type === 'customer_added');
    expect(added).toHaveLength(1);
  });

  it('replays a refusal too, and refuses a key reused for another body, method or route (422 naming the header)', async () => {
    const bad = { firstName: 'No', lastName: 'Email' };
    expect((await post(bad, 'bad-1')).statusCode).toBe(400);
    // The same body spelled with its keys in another order is the same request.
    const replayed = await post({ lastName: 'Email', firstName: 'No' }, 'bad-1');
    expect(replayed.statusCode).toBe(400);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    const otherBody = await post({ ...bad, email: 'fixed@example.com' }, 'bad-1');
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toMatchObject({ field: 'Idempotency-Key', message: expect.stringContaining('different request') });
    const elsewhere = await platform.api.app.inject({
      method: 'PUT',
      url: '/api/notifications/4b8e8a3e-0000-4000-8000-000000000000/read',
      headers: { cookie, 'idempotency-key': 'bad-1' },
    });
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json().field).toBe('Idempotency-Key');
    // Nothing ran: no customer with the other body's email.
    const added = (await platform.api.store.readAll({ limit: 1000 })).filter((e) => e.type === 'customer_added' && e.data.email === 'fixed@example.com');
    expect(added).toHaveLength(0);
  });

  it("keeps each staff member's keys their own: another member's same key runs their own request", async () => {
    const other = await platform.signIn('manager');
    const mine = await post({ firstName: 'Key', lastName: 'Mine', email: 'key-mine@example.com' }, 'shared-key-1');
    const theirs = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      payload: { firstName: 'Key', lastName: 'Theirs', email: 'key-theirs@example.com' },
      headers: { cookie: other, 'idempotency-key': 'shared-key-1' },
    });
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().email).toBe('key-theirs@example.com');
  });

  it('forgets a key after a day: the request then runs again', async () => {
    const body = { firstName: 'Day', lastName: 'Old', email: 'day-old@example.com' };
    expect((await post(body, 'expiring-1')).statusCode).toBe(201);
    expect((await post(body, 'expiring-1')).headers['idempotent-replayed']).toBe('true');
    await platform.api.pool.query(sql.unsafe`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'expiring-1'`);
    // It runs again (the email is taken now), and is not the first answer replayed.
    const again = await post(body, 'expiring-1');
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.statusCode).toBe(409);
    // A key expired for a day is free for any request.
    await platform.api.pool.query(sql.unsafe`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'expiring-1'`);
    expect((await post({ ...body, email: 'day-new@example.com' }, 'expiring-1')).statusCode).toBe(201);
  });

  it('takes over the claim of a request that died mid-way, and still answers 409 while a fresh claim runs', async () => {
    const body = { firstName: 'Crash', lastName: 'Midway', email: 'crash-midway@example.com' };
    const first = await post(body, 'crashed-1');
    expect(first.statusCode).toBe(201);
    const scope = await platform.api.pool.oneFirst(sql.type(z.object({ scope: z.string() }))`SELECT scope FROM idempotency_keys WHERE key = 'crashed-1'`);
    // A process killed after claiming leaves the claim with no answer, as a run still under way does.
    const claim = async (key: string, payload: object, claimedAgo: string) =>
      platform.api.pool.query(sql.unsafe`
        INSERT INTO idempotency_keys (scope, key, method, path, body_hash, claim_token, claimed_at, created_at)
        VALUES (${scope}, ${key}, 'POST', '/api/customers', ${bodyHashOf(payload)}, 'dead', now() - ${claimedAgo}::interval, now() - ${claimedAgo}::interval)`);
    const fresh = { ...body, email: 'crash-fresh@example.com' };
    await claim('in-flight-1', fresh, '1 second');
    const busy = await post(fresh, 'in-flight-1');
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toContain('still being processed');

    const stale = { ...body, email: 'crash-stale@example.com' };
    await claim('crashed-2', stale, '10 minutes');
    // Another body with the stale key is still another request.
    expect((await post({ ...stale, lastName: 'Other' }, 'crashed-2')).statusCode).toBe(422);
    const retried = await post(stale, 'crashed-2');
    expect(retried.statusCode).toBe(201);
    expect(retried.json().email).toBe('crash-stale@example.com');
    expect((await post(stale, 'crashed-2')).headers['idempotent-replayed']).toBe('true');
  });

  it('binds a key to the matched route, not to the spelling of its URL', async () => {
    const body = { firstName: 'Spelled', lastName: 'Twice', email: 'spelled@example.com' };
    const first = await post(body, 'spelling-1', '/api/customers');
    expect(first.statusCode).toBe(201);
    for (const url of ['/%61pi/customers', '/api/customers/', '/api/customers?x=1']) {
      const again = await post(body, 'spelling-1', url);
      expect(again.statusCode, url).toBe(201);
      expect(again.headers['idempotent-replayed'], url).toBe('true');
      expect(again.json()).toEqual(first.json());
    }
    const other = await platform.api.app.inject({
      method: 'PATCH',
      url: `/api/customers/${first.json().id}`,
      payload: { firstName: 'Other' },
      headers: { cookie, 'idempotency-key': 'spelling-1' },
    });
    expect(other.statusCode).toBe(422);
  });

  it('refuses a malformed key with 400 naming the header', async () => {
    const response = await post({ firstName: 'A', lastName: 'B', email: 'ab@example.com' }, 'x'.repeat(201));
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('Idempotency-Key');
  });
});

describe('Idempotency-Key and secrets', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('never keeps the answer of a route that hands out a secret', async () => {
    const cookie = await platform.signIn('owner');
    const facility = await platform.api.app.inject({
      method: 'POST',
      url: '/api/facilities',
      payload: { name: 'Secret Storage', address: '1 Key St' },
      headers: { cookie },
    });
    expect(facility.statusCode).toBe(201);
    const issue = () =>
      platform.api.app.inject({
        method: 'POST',
        url: `/api/facilities/${facility.json().id}/gateway-key`,
        headers: { cookie, 'idempotency-key': 'rotate-1' },
      });
    const first = await issue();
    expect(first.statusCode).toBe(201);
    const kept = await platform.api.pool.anyFirst(sql.type(z.object({ key: z.string() }))`SELECT key FROM idempotency_keys`);
    expect(kept).not.toContain('rotate-1');
  });
});

describe('Idempotency-Key of renters and anonymous callers', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  async function renter(staff: string, name: string) {
    const phone = `(555) 020-${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const email = `${name}-${Date.now()}@example.com`;
    const created = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      payload: { firstName: name, lastName: 'Renter', email, phone, status: 'active' },
      headers: { cookie: staff },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const last = (await platform.api.store.readStream(`customer-${id}`)).at(-1)!;
    expect(await platform.api.afterAppend(last.position, 15_000)).toBe(true);
    const verified = await platform.api.app.inject({ method: 'POST', url: '/api/customer/verify', payload: { email, phoneLast4: phone.slice(-4) } });
    expect(verified.statusCode, verified.body).toBe(200);
    return { id, cookie: sessionCookie(verified.headers['set-cookie']) };
  }

  it("never replays one renter's answer to another renter on the same address", async () => {
    const staff = await platform.signIn('clerk');
    const [a, b] = [await renter(staff, 'Ann'), await renter(staff, 'Bea')];
    // Each reports a payment of their own with the same key, from the same address.
    const report = (who: { id: string; cookie: string }) =>
      platform.api.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook/simulate',
        payload: { paymentIntentId: `pi_test_${who.id.replaceAll('-', '')}`, customerId: who.id },
        headers: { cookie: who.cookie, 'idempotency-key': 'pay-1' },
      });
    const first = await report(a);
    const second = await report(b);
    expect(first.statusCode).toBe(404);
    expect(second.statusCode).toBe(404);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    const scopes = await platform.api.pool.anyFirst(
      sql.type(z.object({ scope: z.string() }))`SELECT scope FROM idempotency_keys WHERE key = 'pay-1' ORDER BY scope`,
    );
    expect(scopes).toEqual([`customer:${a.id}`, `customer:${b.id}`].sort());
    // A's own repeat is A's answer.
    expect((await report(a)).headers['idempotent-replayed']).toBe('true');
  });

  it('keeps anonymous callers apart by address', async () => {
    const report = (remoteAddress: string) =>
      platform.api.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook/simulate',
        remoteAddress,
        payload: { paymentIntentId: 'pi_test_nobody' },
        headers: { 'idempotency-key': 'anon-1' },
      });
    expect((await report('203.0.113.7')).statusCode).toBe(404);
    const other = await report('203.0.113.8');
    expect(other.statusCode).toBe(404);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect((await report('203.0.113.7')).headers['idempotent-replayed']).toBe('true');
  });
});
