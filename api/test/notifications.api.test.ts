import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyWriter } from './history.ts';

type Listed = { id: string; type: string; title: string; message: string; read: boolean; createdAt: string };

// Every lease start raises an 'Unit assigned' notification in its unit's facility.
const LEASES_IN_NORTH = 53;

describe('notifications API', () => {
  let platform: TestPlatform;
  let cookie: string;
  let north: string;
  let south: string;
  const inject = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    platform.api.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const list = async (query = '') => {
    const response = await inject('GET', `/api/notifications${query}`);
    expect(response.statusCode).toBe(200);
    return { items: response.json() as Listed[], unread: Number(response.headers['x-unread-count']) };
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn();
    const history = historyWriter(platform);
    const now = new Date();
    north = await history.facility(now, 'North Notifications');
    south = await history.facility(now, 'South Notifications');
    for (let i = 0; i < LEASES_IN_NORTH; i++) {
      const unit = await history.unit(now, north, `NN-${i}`, 'A');
      await history.lease(now, await history.customer(now, north, { firstName: `North${i}`, email: `north${i}@example.com` }), unit, '50.00');
    }
    const unit = await history.unit(now, south, 'SN-1', 'A');
    await history.lease(now, await history.customer(now, south, { firstName: 'South', email: 'south@example.com' }), unit, '50.00');
    await history.settle();
  }, 120_000);
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 when signed out', async () => {
    expect((await platform.api.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    expect((await platform.api.app.inject({ method: 'PUT', url: '/api/notifications/4b8e8a3e-0000-4000-8000-000000000000/read' })).statusCode).toBe(401);
  });

  it('lists the newest 50 and counts every unread one in a header, so the badge is true past the list', async () => {
    const { items, unread } = await list(`?facilityId=${north}`);
    expect(items).toHaveLength(50);
    expect(items[0]).toEqual({
      id: expect.any(String),
      type: expect.any(String),
      title: expect.any(String),
      message: expect.any(String),
      read: false,
      createdAt: expect.any(String),
    });
    const assigned = items.filter((n) => n.type === 'unit_assigned');
    expect(assigned[0]!.title).toBe('Unit assigned');
    expect(unread).toBeGreaterThanOrEqual(LEASES_IN_NORTH);
    const times = items.map((n) => n.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('scopes the list and the count to a facility', async () => {
    const southList = await list(`?facilityId=${south}`);
    expect(southList.items.some((n) => n.message.includes('SN-1'))).toBe(true);
    expect(southList.items.some((n) => n.message.includes('NN-'))).toBe(false);
    const [northCount, all] = [(await list(`?facilityId=${north}`)).unread, (await list()).unread];
    expect(all).toBe(northCount + southList.unread);
  });

  it('marks one read (PUT), once, and the count follows', async () => {
    const { items, unread } = await list(`?facilityId=${south}`);
    const target = items.find((n) => !n.read)!;
    expect((await inject('PUT', `/api/notifications/${target.id}/read`)).statusCode).toBe(204);
    expect((await inject('PUT', `/api/notifications/${target.id}/read`)).statusCode).toBe(204);
    const after = await list(`?facilityId=${south}`);
    expect(after.unread).toBe(unread - 1);
    expect(after.items.find((n) => n.id === target.id)?.read).toBe(true);
  });

  it('answers 404 for an unknown notification and 400 for a bad id or filter', async () => {
    expect((await inject('PUT', '/api/notifications/4b8e8a3e-0000-4000-8000-000000000000/read')).statusCode).toBe(404);
    const badId = await inject('PUT', '/api/notifications/42/read');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().field).toBe('id');
    const badFacility = await inject('GET', '/api/notifications?facilityId=north');
    expect(badFacility.statusCode).toBe(400);
    expect(badFacility.json().field).toBe('facilityId');
  });

  describe('Mark all as read', () => {
    it('marks every notification of one facility with one event, past the end of the list; the other facility keeps its unread ones', async () => {
      expect((await list(`?facilityId=${north}`)).unread).toBeGreaterThan(50);
      const southBefore = (await list(`?facilityId=${south}`)).unread;
      expect(southBefore).toBeGreaterThan(0);
      // Nothing still on its way from what came before (a lease's gate code is the access reaction's, after the command answered).
      expect(await platform.reactionsCaughtUp()).toBe(true);
      const head = await platform.api.store.newestPosition();
      const marked = await inject('POST', '/api/notifications/read-all', { facilityId: north });
      expect(marked.statusCode, marked.body).toBe(204);
      const appended = await platform.api.store.readAll({ after: head, limit: 10 });
      expect(appended.map((e) => e.type)).toEqual(['notifications_marked_read']);
      const northAfter = await list(`?facilityId=${north}`);
      expect(northAfter.unread).toBe(0);
      expect(northAfter.items.every((n) => n.read)).toBe(true);
      expect((await list(`?facilityId=${south}`)).unread).toBe(southBefore);
    });

    it('leaves what is raised afterwards unread', async () => {
      const history = historyWriter(platform);
      const now = new Date();
      const unit = await history.unit(now, north, 'NN-late', 'A');
      await history.lease(now, await history.customer(now, north, { firstName: 'Late', email: 'late@example.com' }), unit, '50.00');
      await history.settle();
      const { items, unread } = await list(`?facilityId=${north}`);
      // The late renter's "New customer" and "Unit assigned".
      expect(unread).toBe(2);
      expect(
        items
          .filter((n) => !n.read)
          .map((n) => n.title)
          .sort(),
      ).toEqual(['New customer', 'Unit assigned']);
    });

    it('with no facility, marks every facility read', async () => {
      expect((await list()).unread).toBeGreaterThan(0);
      expect((await inject('POST', '/api/notifications/read-all', {})).statusCode).toBe(204);
      expect((await list()).unread).toBe(0);
      expect((await list(`?facilityId=${south}`)).unread).toBe(0);
    });

    it('refuses a bad or unknown facility and unknown fields, writing nothing', async () => {
      // Nothing still on its way from what came before (a lease's gate code is the access reaction's, after the command answered).
      expect(await platform.reactionsCaughtUp()).toBe(true);
      const head = await platform.api.store.newestPosition();
      const bad = await inject('POST', '/api/notifications/read-all', { facilityId: 'north' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().field).toBe('facilityId');
      const unknown = await inject('POST', '/api/notifications/read-all', { facilityId: '4b8e8a3e-0000-4000-8000-000000000000' });
      expect(unknown.statusCode).toBe(404);
      expect((await inject('POST', '/api/notifications/read-all', { all: true })).statusCode).toBe(400);
      expect(await platform.api.store.newestPosition()).toEqual(head);
    });
  });
});
