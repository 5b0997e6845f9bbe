import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestPlatform, type TestPlatform } from '../../ops/src/testing/platform.ts';

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

  it('replays a refusal too, and refuses a key reused for another request', async () => {
    const bad = { firstName: 'No', lastName: 'Email' };
    expect((await post(bad, 'bad-1')).statusCode).toBe(400);
    const again = await post({ ...bad, email: 'fixed@example.com' }, 'bad-1');
    expect(again.statusCode).toBe(400);
    const elsewhere = await platform.api.app.inject({
      method: 'PUT',
      url: '/api/notifications/4b8e8a3e-0000-4000-8000-000000000000/read',
      headers: { cookie, 'idempotency-key': 'bad-1' },
    });
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json().message).toContain('different request');
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
