import { randomUUID } from 'node:crypto';
import { CustomerNote } from '@storage/contracts/customers';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Notes on a customer: staff who change things add them (the author is who was signed in),
// everyone reads them newest first; bad text is a 400 naming it, an unknown customer a 404.

describe('customer notes', () => {
  let platform: TestPlatform;
  const cookies: Record<string, string> = {};
  const call = (method: 'GET' | 'POST', url: string, role: string, payload?: unknown) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie: cookies[role]! } });

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    for (const role of ['owner', 'clerk', 'auditor'] as const) cookies[role] = await platform.signIn(role);
  });
  afterAll(async () => {
    await platform?.close();
  });

  async function customer() {
    const tag = randomUUID().slice(0, 8);
    const created = await call('POST', '/api/customers', 'owner', { firstName: 'Nora', lastName: `Notes${tag}`, email: `nora-${tag}@example.com` });
    expect(created.statusCode).toBe(201);
    return created.json().id as string;
  }

  it('adds notes newest first with their author, and lets an auditor read but not write', async () => {
    const id = await customer();
    expect((await call('GET', `/api/customers/${id}/notes`, 'auditor')).json()).toEqual([]);
    expect((await call('POST', `/api/customers/${id}/notes`, 'owner', { text: '  Gate code given by phone  ' })).statusCode).toBe(201);
    const added = await call('POST', `/api/customers/${id}/notes`, 'clerk', { text: 'Prefers calls after 5 pm' });
    expect(added.statusCode).toBe(201);
    const notes = z.array(CustomerNote).parse((await call('GET', `/api/customers/${id}/notes`, 'auditor')).json());
    expect(notes.map((n) => [n.text, n.author])).toEqual([
      ['Prefers calls after 5 pm', 'Test clerk'],
      ['Gate code given by phone', 'Test owner'],
    ]);
    expect(added.json()).toEqual(notes);
    expect((await call('POST', `/api/customers/${id}/notes`, 'auditor', { text: 'Nope' })).statusCode).toBe(403);
  });

  it('refuses empty or overlong text with 400 naming it, and an unknown customer with 404', async () => {
    const id = await customer();
    for (const text of ['', '   ', 'x'.repeat(2001)]) {
      const response = await call('POST', `/api/customers/${id}/notes`, 'owner', { text });
      expect(response.statusCode).toBe(400);
      expect(response.json().field).toBe('text');
    }
    expect((await call('POST', `/api/customers/${randomUUID()}/notes`, 'owner', { text: 'Hello' })).statusCode).toBe(404);
    expect((await call('GET', `/api/customers/${randomUUID()}/notes`, 'owner')).statusCode).toBe(404);
    expect((await call('GET', `/api/customers/${id}/notes`, 'owner')).json()).toEqual([]);
  });
});
