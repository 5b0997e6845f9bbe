import { randomUUID } from 'node:crypto';
import { addFacility } from '@storage/domain/facilities/commands';
import { recordLockHeartbeat } from '@storage/domain/locks/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readModelCaughtUp } from './read-model.ts';

const tag = () => Math.random().toString(36).slice(2, 8).toUpperCase();

describe('locks API', () => {
  let platform: TestPlatform;
  let cookie: string;
  const north = { facilityId: randomUUID(), unitId: '', unitNumber: `LN-${tag()}` };
  const south = { facilityId: randomUUID(), unitId: '', unitNumber: `LS-${tag()}` };

  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = { cookie }) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers });
  const read = async (url: string) => {
    await readModelCaughtUp(platform);
    return inject('GET', url);
  };
  const lock = (overrides: Record<string, unknown> = {}) => ({
    lockId: `NK-${tag()}`,
    unitId: null,
    status: 'active',
    batteryLevel: 100,
    firmwareVersion: '2.4.0',
    ...overrides,
  });
  const createLock = async (overrides: Record<string, unknown> = {}) => {
    const response = await inject('POST', '/api/locks', lock(overrides));
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const issueKey = async (facilityId: string) => {
    const response = await inject('POST', `/api/facilities/${facilityId}/gateway-key`);
    expect(response.statusCode, response.body).toBe(201);
    await readModelCaughtUp(platform);
    return response.json() as { key: string; keyPrefix: string; createdAt: string };
  };
  const heartbeat = (lockId: string, key: string | null, body: unknown = { batteryLevel: 80, firmwareVersion: '2.4.1' }) =>
    inject('POST', `/api/locks/${lockId}/heartbeat`, body, key === null ? {} : { authorization: `Bearer ${key}` });

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn('owner');
    const ctx = { store: platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    for (const [site, name] of [
      [north, 'Locks Test North'],
      [south, 'Locks Test South'],
    ] as const) {
      await addFacility(ctx, { name, address: '1 Gate Rd', phone: null, managerName: null }, site.facilityId);
      const created = await inject('POST', '/api/units', {
        unitNumber: site.unitNumber,
        building: 'A',
        monthlyRate: '120.00',
        facilityId: site.facilityId,
      });
      expect(created.statusCode, created.body).toBe(201);
      site.unitId = created.json().id;
    }
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 to every staff locks call when signed out', async () => {
    const id = randomUUID();
    for (const [method, url] of [
      ['GET', '/api/locks'],
      ['GET', `/api/locks/${id}`],
      ['POST', '/api/locks'],
      ['PATCH', `/api/locks/${id}`],
      ['GET', `/api/facilities/${id}/gateway-key`],
      ['POST', `/api/facilities/${id}/gateway-key`],
    ] as const) {
      const response = await inject(method, url, method === 'GET' ? undefined : lock(), {});
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('installs a lock with the form defaults and lists it with its unit at once', async () => {
    const lockId = `NK-${tag()}`;
    const created = await inject('POST', '/api/locks', { lockId, unitId: north.unitId });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      lockId,
      unitId: north.unitId,
      status: 'active',
      batteryLevel: 100,
      firmwareVersion: null,
      lastSeen: null,
      unit: { id: north.unitId, facilityId: north.facilityId, unitNumber: north.unitNumber },
    });
    const list = await inject('GET', `/api/locks?search=${lockId}`);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json()).toEqual([created.json()]);
    expect((await inject('GET', `/api/locks/${created.json().id}`)).json()).toEqual(created.json());
  });

  it('installs a spare lock on no unit', async () => {
    const spare = await createLock({ unitId: null });
    expect(spare).toMatchObject({ unitId: null, unit: null });
    const withoutField = await inject('POST', '/api/locks', { lockId: `NK-${tag()}` });
    expect(withoutField.json()).toMatchObject({ unitId: null, unit: null, status: 'active', batteryLevel: 100 });
  });

  it('refuses a lock id that is taken, also when the case differs', async () => {
    const input = lock();
    expect((await inject('POST', '/api/locks', input)).statusCode).toBe(201);
    const again = await inject('POST', '/api/locks', { ...input, lockId: input.lockId.toLowerCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: `A lock with the id ${input.lockId.toLowerCase()} already exists`, field: 'lockId' });
  });

  it('lets exactly one of ten simultaneous installs with one lock id win', async () => {
    const input = lock();
    const responses = await Promise.all(Array.from({ length: 10 }, () => inject('POST', '/api/locks', input)));
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes, responses.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toEqual([201, ...Array<number>(9).fill(409)]);
    expect((await read(`/api/locks?search=${input.lockId}`)).json()).toHaveLength(1);
  });

  it.each([
    ['a missing lock id', { ...lock(), lockId: undefined }, 'lockId', 'lockId: is required'],
    ['a battery level over 100', lock({ batteryLevel: 101 }), 'batteryLevel', 'batteryLevel: must be a whole number from 0 to 100'],
    ['a negative battery level', lock({ batteryLevel: -1 }), 'batteryLevel', 'batteryLevel: must be a whole number from 0 to 100'],
    ['a fractional battery level', lock({ batteryLevel: 50.5 }), 'batteryLevel', 'batteryLevel: must be a whole number from 0 to 100'],
    ['a battery level that is text', lock({ batteryLevel: 'full' }), 'batteryLevel', 'batteryLevel:'],
    ['an unknown status', lock({ status: 'broken' }), 'status', 'status: must be one of: active, inactive, maintenance, low_battery'],
    ['a unit id that is not a uuid', lock({ unitId: 'A101' }), 'unitId', 'unitId:'],
    ['an unknown field', lock({ colour: 'red' }), 'colour', 'Unknown field: colour'],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_what, body, field, message) => {
    const before = (await read('/api/locks')).headers['x-total-count'];
    const response = await inject('POST', '/api/locks', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
    expect(response.json().message).toContain(message);
    expect((await read('/api/locks')).headers['x-total-count']).toBe(before);
  });

  it('refuses a unit that does not exist with 404', async () => {
    const response = await inject('POST', '/api/locks', lock({ unitId: randomUUID() }));
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Unit not found');
  });

  it('searches by lock id or unit number and scopes by the unit’s facility on the server', async () => {
    const t = tag();
    const onNorth = await createLock({ lockId: `SR-${t}-1`, unitId: north.unitId });
    const onSouth = await createLock({ lockId: `SR-${t}-2`, unitId: south.unitId });
    const spare = await createLock({ lockId: `SR-${t}-3`, unitId: null });
    const ids = async (query: string) => (await read(`/api/locks?${query}`)).json().map((l: { id: string }) => l.id);

    expect(await ids(`search=sr-${t.toLowerCase()}`)).toEqual([onNorth.id, onSouth.id, spare.id]);
    expect(await ids(`search=sr-${t}&facilityId=${north.facilityId}`)).toEqual([onNorth.id]);
    expect(await ids(`search=sr-${t}&facilityId=${south.facilityId}`)).toEqual([onSouth.id]);
    expect(await ids(`search=${south.unitNumber}`)).toContain(onSouth.id);
    expect(await ids(`search=${south.unitNumber}`)).not.toContain(onNorth.id);
    expect(await ids(`search=sr-${t}&status=active&pageSize=2&page=2`)).toEqual([spare.id]);
    expect((await read(`/api/locks?search=sr-${t}&pageSize=2`)).headers['x-total-count']).toBe('3');
    expect((await read('/api/locks?status=gone')).statusCode).toBe(400);
  });

  it('moves a lock between units, takes it off, and changes its status (lock details)', async () => {
    const created = await createLock({ unitId: north.unitId });
    const moved = await inject('PATCH', `/api/locks/${created.id}`, { unitId: south.unitId });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().unit).toEqual({ id: south.unitId, facilityId: south.facilityId, unitNumber: south.unitNumber });
    const inSouth = await read(`/api/locks?search=${created.lockId}&facilityId=${south.facilityId}`);
    expect(inSouth.json()).toHaveLength(1);

    const both = await inject('PATCH', `/api/locks/${created.id}`, { unitId: null, status: 'maintenance' });
    expect(both.json()).toMatchObject({ unitId: null, unit: null, status: 'maintenance' });
    expect((await read(`/api/locks/${created.id}`)).json()).toMatchObject({ unitId: null, unit: null, status: 'maintenance' });

    const events = await platform.api.store.readStream(`lock-${created.id}`);
    expect(events.map((e) => e.type)).toEqual(['lock_installed', 'lock_assigned', 'lock_assigned', 'lock_status_changed']);
  });

  it('refuses lock details changes that make no sense', async () => {
    const created = await createLock({ unitId: north.unitId });
    expect((await inject('PATCH', `/api/locks/${created.id}`, {})).statusCode).toBe(400);
    expect((await inject('PATCH', `/api/locks/${created.id}`, { status: 'broken' })).json().field).toBe('status');
    expect((await inject('PATCH', `/api/locks/${created.id}`, { unitId: randomUUID() })).statusCode).toBe(404);
    expect((await inject('PATCH', `/api/locks/${randomUUID()}`, { status: 'inactive' })).statusCode).toBe(404);
    expect((await inject('PATCH', '/api/locks/NK-1', { status: 'inactive' })).statusCode).toBe(400);
  });

  describe('gateway keys and heartbeats', () => {
    it('lets an owner create a key, shown once, and then shows only its prefix', async () => {
      const none = await read(`/api/facilities/${north.facilityId}/gateway-key`);
      expect([none.statusCode, none.body]).toEqual([204, '']);
      expect((await read(`/api/facilities/${randomUUID()}/gateway-key`)).statusCode).toBe(404);
      const issued = await issueKey(north.facilityId);
      expect(issued.key).toMatch(/^sgk_[A-Za-z0-9_-]{43}$/);
      expect(issued.key.startsWith(issued.keyPrefix)).toBe(true);
      const shown = await read(`/api/facilities/${north.facilityId}/gateway-key`);
      expect(shown.statusCode).toBe(200);
      expect(shown.json()).toEqual({ keyPrefix: issued.keyPrefix, createdAt: issued.createdAt });

      const events = await platform.api.store.readStream(`facility-${north.facilityId}`);
      const rotated = events.filter((e) => e.type === 'gateway_key_rotated');
      expect(rotated).toHaveLength(1);
      expect(JSON.stringify(rotated[0]!.data)).not.toContain(issued.key);
    });

    it('lets only an owner create or rotate a key', async () => {
      for (const role of ['manager', 'clerk', 'auditor'] as const) {
        const staffCookie = await platform.signIn(role);
        const response = await inject('POST', `/api/facilities/${south.facilityId}/gateway-key`, undefined, { cookie: staffCookie });
        expect(response.statusCode, role).toBe(403);
        // Auditors are refused before any route: they are read-only everywhere.
        expect(response.json().message).toBe(role === 'auditor' ? 'Auditors have read-only access' : 'Only owner accounts may do this');
      }
      expect((await inject('POST', `/api/facilities/${randomUUID()}/gateway-key`)).statusCode).toBe(404);
      expect((await inject('POST', '/api/facilities/north/gateway-key')).statusCode).toBe(400);
    });

    it('records a heartbeat sent with the facility’s key', async () => {
      const { key } = await issueKey(north.facilityId);
      const created = await createLock({ unitId: north.unitId, batteryLevel: 90 });
      const response = await heartbeat(created.id, key, { batteryLevel: 85, firmwareVersion: '2.5.0' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ id: created.id, status: 'active', batteryLevel: 85 });
      const shown = (await read(`/api/locks/${created.id}`)).json();
      expect(shown).toMatchObject({ batteryLevel: 85, firmwareVersion: '2.5.0' });
      expect(Date.now() - Date.parse(shown.lastSeen)).toBeLessThan(60_000);
      // A routine heartbeat goes on the lock's heartbeat stream: no lock command replays it.
      const heartbeats = await platform.api.store.readStream(`lock-heartbeats-${created.id}`);
      expect(heartbeats.map((e) => [e.type, e.data.batteryLevel])).toEqual([['lock_heartbeat_received', 85]]);
      expect(heartbeats.at(-1)!.metadata.actor).toEqual({ type: 'system' });
      expect((await platform.api.store.readStream(`lock-${created.id}`)).map((e) => e.type)).toEqual(['lock_installed']);
      // A change of the lock answers the battery and firmware of its last heartbeat, not those it was installed with.
      await readModelCaughtUp(platform);
      const moved = await inject('PATCH', `/api/locks/${created.id}`, { unitId: null });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json()).toMatchObject({ unit: null, batteryLevel: 85, firmwareVersion: '2.5.0' });
    });

    it('flags a low battery under 20% and raises the notification', async () => {
      const { key } = await issueKey(north.facilityId);
      const created = await createLock({ unitId: north.unitId });
      const response = await heartbeat(created.id, key, { batteryLevel: 15, firmwareVersion: null });
      expect(response.json()).toEqual({ id: created.id, status: 'low_battery', batteryLevel: 15 });
      const events = await platform.api.store.readStream(`lock-${created.id}`);
      expect(events.map((e) => e.type)).toEqual(['lock_installed', 'lock_heartbeat_received', 'lock_battery_low', 'lock_status_changed']);
      expect((await read(`/api/locks/${created.id}`)).json()).toMatchObject({ status: 'low_battery', batteryLevel: 15, firmwareVersion: '2.4.0' });
      await readModelCaughtUp(platform);
      const notification = await platform.api.pool.maybeOne(sql.type(z.object({ message: z.string(), facility_id: z.string().nullable() }))`
        SELECT message, facility_id::text FROM notifications WHERE type = 'lock_battery_low' AND message LIKE ${`%${created.lockId}%`}`);
      expect(notification).toEqual({ message: `Lock ${created.lockId} on unit ${north.unitNumber} is at 15%`, facility_id: north.facilityId });
    });

    it('answers 401 without a key, with a wrong key, and with only a staff session', async () => {
      await issueKey(north.facilityId);
      const created = await createLock({ unitId: north.unitId });
      for (const [what, headers] of [
        ['no key', {}],
        ['a wrong key', { authorization: 'Bearer sgk_not-the-key' }],
        ['a key without Bearer', { authorization: 'sgk_not-the-key' }],
        ['a staff session', { cookie }],
      ] as const) {
        const response = await inject('POST', `/api/locks/${created.id}/heartbeat`, { batteryLevel: 50 }, headers);
        expect(response.statusCode, what).toBe(401);
        expect(response.json()).toEqual({ message: 'Unauthorized' });
      }
      const events = await platform.api.store.readStream(`lock-${created.id}`);
      expect(events.map((e) => e.type)).toEqual(['lock_installed']);
    });

    it('answers 403 for a lock of another facility or on no unit, and 404 for an unknown lock', async () => {
      const { key } = await issueKey(south.facilityId);
      const northLock = await createLock({ unitId: north.unitId });
      const spare = await createLock({ unitId: null });
      for (const lockId of [northLock.id, spare.id]) {
        const response = await heartbeat(lockId, key);
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe("This lock is not on a unit of the gateway key's facility");
      }
      expect((await heartbeat(randomUUID(), key)).statusCode).toBe(404);
      const southLock = await createLock({ unitId: south.unitId });
      expect((await heartbeat(southLock.id, key)).statusCode).toBe(200);
    });

    it('refuses a bad heartbeat with 400 naming the field', async () => {
      const { key } = await issueKey(north.facilityId);
      const created = await createLock({ unitId: north.unitId });
      for (const [body, field] of [
        [{ batteryLevel: 120 }, 'batteryLevel'],
        [{ firmwareVersion: '2.4.0' }, 'batteryLevel'],
        [{ batteryLevel: 50, serial: 'x' }, 'serial'],
      ] as const) {
        const response = await heartbeat(created.id, key, body);
        expect(response.statusCode).toBe(400);
        expect(response.json().field).toBe(field);
      }
      expect((await heartbeat('NK-1', key)).statusCode).toBe(400);
    });

    it('makes the old key useless once the key is rotated', async () => {
      const old = await issueKey(north.facilityId);
      const created = await createLock({ unitId: north.unitId });
      expect((await heartbeat(created.id, old.key)).statusCode).toBe(200);
      const rotated = await issueKey(north.facilityId);
      expect(rotated.key).not.toBe(old.key);
      expect((await heartbeat(created.id, old.key)).statusCode).toBe(401);
      expect((await heartbeat(created.id, rotated.key)).statusCode).toBe(200);
      expect((await read(`/api/facilities/${north.facilityId}/gateway-key`)).json().keyPrefix).toBe(rotated.keyPrefix);
    });
  });

  describe('exception filters', () => {
    // One lock per exception, and one with none, under a tag of their own (searched for) so the
    // other tests' locks stay out.
    const t = tag();
    const locks: Record<'healthy' | 'low' | 'neverSeen' | 'longAgo' | 'notApplied' | 'lowSouth', { id: string; lockId: string }> = {} as never;
    const ids = async (query: string) => {
      const response = await read(`/api/locks?search=ex-${t}&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return { ids: response.json().map((l: { lockId: string }) => l.lockId), total: response.headers['x-total-count'] };
    };
    const name = (...which: (keyof typeof locks)[]) => which.map((w) => locks[w].lockId);

    beforeAll(async () => {
      const { key } = await issueKey(north.facilityId);
      const southKey = (await issueKey(south.facilityId)).key;
      const add = async (which: keyof typeof locks, unitId: string) => {
        locks[which] = await createLock({ lockId: `EX-${t}-${which}`, unitId });
        return locks[which].id;
      };
      const beat = async (id: string, body: Record<string, unknown>, gatewayKey = key) => {
        const response = await heartbeat(id, gatewayKey, { firmwareVersion: null, ...body });
        expect(response.statusCode, response.body).toBe(200);
      };
      await beat(await add('healthy', north.unitId), { batteryLevel: 80, reported: 'normal' });
      await beat(await add('low', north.unitId), { batteryLevel: 19 });
      await add('neverSeen', north.unitId);
      // Last heard from a little over a day ago (the business clock runs on the wall clock here).
      const longAgo = await add('longAgo', north.unitId);
      const dayAgo = new Date(Date.now() - 25 * 3_600_000);
      await recordLockHeartbeat({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: dayAgo }, longAgo, {
        batteryLevel: 70,
        firmwareVersion: null,
      });
      // Reports itself overlocked while it should be normal: the desired state is not applied.
      await beat(await add('notApplied', north.unitId), { batteryLevel: 90, reported: 'overlocked' });
      await beat(await add('lowSouth', south.unitId), { batteryLevel: 5 }, southKey);
      await readModelCaughtUp(platform);
    });

    it('narrows the list to a low battery: under 20%, the threshold the lock flags', async () => {
      expect(await ids('exceptions=lowBattery')).toEqual({ ids: name('low', 'lowSouth'), total: '2' });
    });

    it('narrows the list to offline locks: never seen, or not for a day', async () => {
      expect(await ids('exceptions=offline')).toEqual({ ids: name('longAgo', 'neverSeen'), total: '2' });
    });

    it('narrows the list to locks whose desired state is not yet applied', async () => {
      const answer = await ids('exceptions=notApplied');
      expect(answer).toEqual({ ids: name('notApplied'), total: '1' });
      const [shown] = (await read(`/api/locks?search=ex-${t}&exceptions=notApplied`)).json();
      expect(shown).toMatchObject({ desiredState: 'normal', reportedState: 'overlocked' });
      expect(shown.differsSince).not.toBeNull();
    });

    it('matches any of the exceptions asked for together, and combines them with the facility, status, sort and pages', async () => {
      expect(await ids('exceptions=lowBattery,offline,notApplied')).toEqual({ ids: name('longAgo', 'low', 'lowSouth', 'neverSeen', 'notApplied'), total: '5' });
      // Named twice or in another order: the same filter.
      expect(await ids('exceptions=offline,lowBattery,offline')).toEqual({ ids: name('longAgo', 'low', 'lowSouth', 'neverSeen'), total: '4' });
      expect(await ids(`exceptions=lowBattery&facilityId=${south.facilityId}`)).toEqual({ ids: name('lowSouth'), total: '1' });
      expect(await ids('exceptions=lowBattery,notApplied&status=low_battery')).toEqual({ ids: name('low', 'lowSouth'), total: '2' });
      expect(await ids('exceptions=lowBattery,notApplied&sort=batteryLevel')).toEqual({ ids: name('lowSouth', 'low', 'notApplied'), total: '3' });
      expect(await ids('exceptions=lowBattery,offline,notApplied&sort=batteryLevel&pageSize=2&page=2')).toEqual({
        ids: name('longAgo', 'notApplied'),
        total: '5',
      });
      expect(await ids('')).toMatchObject({ total: '6' });
    });

    it.each([
      ['an unknown exception', 'exceptions=broken'],
      ['a known one beside an unknown one', 'exceptions=offline,broken'],
      ['an empty one', 'exceptions=offline,'],
      ['none at all', 'exceptions='],
      ['the parameter twice', 'exceptions=offline&exceptions=lowBattery'],
    ])('refuses %s with 400 naming exceptions', async (_what, query) => {
      const response = await read(`/api/locks?${query}`);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().field).toBe('exceptions');
      expect(response.json().message).toMatch(/^exceptions: /);
    });
  });
});
