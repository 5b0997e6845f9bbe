import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('entity history and the event log', () => {
  let platform: TestPlatform;
  let cookie: string;
  let customerId: string;
  let facilityId: string;
  let beforeUpdate: string;
  const get = (url: string) => platform.api.app.inject({ method: 'GET', url, headers: { cookie } });

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn();
    const facility = await platform.api.app.inject({
      method: 'POST',
      url: '/api/facilities',
      headers: { cookie },
      payload: { name: 'History Storage', address: '1 Audit Way' },
    });
    facilityId = facility.json().id;
    const created = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      headers: { cookie },
      payload: { firstName: 'Jane', lastName: 'Renter', email: `jane-${Date.now()}@example.com`, phone: '555-010-2030', status: 'active', facilityId },
    });
    customerId = created.json().id;
    await pause(30);
    beforeUpdate = new Date().toISOString();
    await pause(30);
    const updated = await platform.api.app.inject({
      method: 'PATCH',
      url: `/api/customers/${customerId}`,
      headers: { cookie },
      payload: { firstName: 'Janet' },
    });
    expect(updated.statusCode).toBe(200);
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('lists the events of a customer with who did it and what changed, before → after', async () => {
    const response = await get(`/api/history/customer/${customerId}`);
    expect(response.statusCode).toBe(200);
    const history = response.json();
    expect(history.events.map((e: { type: string }) => e.type)).toEqual(['customer_added', 'customer_updated']);
    const update = history.events[1];
    expect(update).toMatchObject({ description: 'Customer updated', actor: 'Test owner' });
    expect(update.changes).toEqual([{ field: 'firstName', label: 'First name', before: 'Jane', after: 'Janet', beforeText: 'Jane', afterText: 'Janet' }]);
    expect(Date.parse(update.recordedAt)).not.toBeNaN();
    expect(history.stateAsOf).toBeNull();
  });

  it('rebuilds the earlier state as of an instant before a later update', async () => {
    const earlier = (await get(`/api/history/customer/${customerId}?asOf=${encodeURIComponent(beforeUpdate)}`)).json();
    expect(earlier.stateAsOf).toMatchObject({ firstName: 'Jane', lastName: 'Renter', status: 'active', lifecycle: 'current' });
    const now = (await get(`/api/history/customer/${customerId}?asOf=${encodeURIComponent(new Date().toISOString())}`)).json();
    expect(now.stateAsOf).toMatchObject({ firstName: 'Janet' });
  });

  it('words what changed: the facility by name, the status as its word, money in dollars', async () => {
    const unitNumber = `H-${Date.now()}`;
    const unit = await platform.api.app.inject({
      method: 'POST',
      url: '/api/units',
      headers: { cookie },
      payload: { unitNumber, building: 'A', monthlyRate: '120', facilityId },
    });
    const unitId = unit.json().id;
    const change = await platform.api.app.inject({
      method: 'PUT',
      url: `/api/units/${unitId}/status`,
      headers: { cookie },
      payload: { status: 'maintenance', reason: 'Door jammed' },
    });
    expect(change.statusCode).toBe(200);
    const history = (await get(`/api/history/unit/${unitId}`)).json();
    const [added, maintenance] = history.events;
    const words = (changes: Array<{ label: string; beforeText: string | null; afterText: string | null }>) =>
      Object.fromEntries(changes.map((c) => [c.label, `${c.beforeText ?? '—'} → ${c.afterText ?? '—'}`]));
    expect(words(added.changes)).toMatchObject({
      Unit: `— → ${unitNumber}`,
      Facility: '— → History Storage',
      Status: '— → Available',
      'Monthly rate': '— → $120.00',
    });
    expect(words(maintenance.changes)).toEqual({ Status: 'Available → Maintenance' });
    const asOf = (await get(`/api/history/unit/${unitId}?asOf=${encodeURIComponent(new Date().toISOString())}`)).json();
    expect(asOf.stateAsOfText).toEqual(expect.arrayContaining([{ field: 'facilityId', label: 'Facility', text: 'History Storage' }]));

    const log = (await get(`/api/audit/events?stream=unit-${unitId}`)).json();
    expect(log.map((e: { entity: string }) => e.entity)).toEqual([`Unit ${unitNumber}`, `Unit ${unitNumber}`]);
    const customerLog = (await get(`/api/audit/events?stream=customer-${customerId}`)).json();
    expect(customerLog[0].entity).toBe('Customer Janet Renter');
  });

  it('answers 400 to a bad date or an unknown type, 404 to an unknown entity', async () => {
    const badDate = await get(`/api/history/customer/${customerId}?asOf=yesterday`);
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().message).toMatch(/^asOf/);
    expect((await get(`/api/history/spaceship/${customerId}`)).statusCode).toBe(400);
    expect((await get('/api/history/unit/4b8e8a3e-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('filters and paginates the event log, newest first', async () => {
    const stream = `customer-${customerId}`;
    const first = await get(`/api/audit/events?stream=${stream}&pageSize=1`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-total-count']).toBe('2');
    expect(first.json().map((e: { type: string }) => e.type)).toEqual(['customer_updated']);
    const second = await get(`/api/audit/events?stream=${stream}&pageSize=1&page=2`);
    expect(second.json().map((e: { type: string }) => e.type)).toEqual(['customer_added']);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    const fromCursor = await get(`/api/audit/events?stream=${stream}&pageSize=1&page=2&cursor=${first.headers['x-next-cursor']}`);
    expect(fromCursor.json()).toEqual(second.json());
    expect((await get(`/api/audit/events?stream=${stream}&pageSize=1&cursor=${fromCursor.headers['x-prev-cursor']}`)).json()).toEqual(first.json());

    const byType = (await get(`/api/audit/events?type=customer_added&facilityId=${facilityId}`)).json();
    expect(byType.map((e: { streamName: string }) => e.streamName)).toEqual([stream]);
    const byActor = (await get(`/api/audit/events?actor=test%20owner&stream=${stream}`)).json();
    expect(byActor).toHaveLength(2);
    expect((await get(`/api/audit/events?actor=system&stream=${stream}`)).json()).toHaveLength(0);
    const future = (await get(`/api/audit/events?stream=${stream}&from=2999-01-01`)).json();
    expect(future).toHaveLength(0);
    expect((await get('/api/audit/events?type=not_an_event')).statusCode).toBe(400);
  });

  it('exports the filtered events as CSV', async () => {
    const response = await get(`/api/audit/events.csv?stream=customer-${customerId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/csv/);
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toContain('Occurred At,Recorded At,Event,Type,Actor,Stream');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('Customer updated');
  });
});
