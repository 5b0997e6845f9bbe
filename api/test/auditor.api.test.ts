import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SOME_ID = '4b8e8a3e-0000-4000-8000-000000000000';

describe('the auditor role', () => {
  let platform: TestPlatform;
  let auditor: string;
  let owner: string;
  let customerId: string;
  const inject = (cookie: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    platform.api.app.inject({ method, url, payload, headers: { cookie } });

  beforeAll(async () => {
    platform = await startTestPlatform();
    owner = await platform.signIn('owner');
    auditor = await platform.signIn('auditor');
    const created = await inject(owner, 'POST', '/api/customers', {
      firstName: 'Ada',
      lastName: 'Audited',
      email: `ada-${Date.now()}@example.com`,
      phone: '555-010-2030',
      status: 'active',
    });
    customerId = created.json().id;
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 403 to every change, in every area, and writes nothing', async () => {
    const changes = [
      ['POST', '/api/customers', { firstName: 'No', lastName: 'Way', email: 'no@example.com', phone: '555', status: 'active' }],
      ['PATCH', `/api/customers/${customerId}`, { firstName: 'Changed' }],
      ['DELETE', `/api/customers/${customerId}`, undefined],
      ['POST', '/api/units', { unitNumber: 'A1', building: 'A', monthlyRate: '10.00' }],
      ['PUT', `/api/units/${SOME_ID}/status`, { status: 'maintenance' }],
      ['POST', '/api/facilities', { name: 'Nope', address: '1 Road' }],
      ['POST', '/api/invoices', {}],
      ['POST', '/api/leases', {}],
      ['POST', `/api/leases/${SOME_ID}/end`, {}],
      ['PATCH', `/api/locks/${SOME_ID}`, {}],
      ['PUT', '/api/settings/business-profile', {}],
      ['PUT', `/api/notifications/${SOME_ID}/read`, {}],
    ] as const;
    for (const [method, url, payload] of changes) {
      const response = await inject(auditor, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toEqual({ message: 'Auditors have read-only access' });
    }
    expect(await platform.api.store.readStream(`customer-${customerId}`)).toHaveLength(1);
    expect((await inject(owner, 'GET', '/api/units')).json()).toHaveLength(0);
  });

  it('reads every screen, the history and the event log', async () => {
    for (const url of [
      '/api/customers',
      '/api/units',
      '/api/invoices',
      '/api/leases',
      '/api/locks',
      '/api/activities',
      '/api/settings',
      `/api/history/customer/${customerId}`,
      '/api/audit/events',
      '/api/audit/events.csv',
      '/api/auth/user',
    ]) {
      expect((await inject(auditor, 'GET', url)).statusCode, url).toBe(200);
    }
  });

  it('still lets an auditor change their own password', async () => {
    const password = await inject(auditor, 'PUT', '/api/auth/password', {});
    expect(password.statusCode).toBe(400);
  });

  it('keeps the history screens from clerks', async () => {
    const clerk = await platform.signIn('clerk');
    expect((await inject(clerk, 'GET', '/api/audit/events')).statusCode).toBe(403);
    expect((await inject(clerk, 'GET', `/api/history/customer/${customerId}`)).statusCode).toBe(403);
  });
});
