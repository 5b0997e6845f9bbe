import { randomUUID } from 'node:crypto';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addUnit, occupyUnit } from '@storage/domain/units/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const facility = (overrides: Record<string, unknown> = {}) => ({
  name: `Yard ${randomUUID().slice(0, 8)}`,
  address: '1 Main St, Springfield',
  phone: '(555) 010-0100',
  managerName: 'Maria Gonzalez',
  ...overrides,
});

describe('facilities API', () => {
  let platform: TestPlatform;
  let cookie: string;
  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, as = cookie) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie: as } });
  const total = async () => Number((await inject('GET', '/api/facilities')).headers['x-total-count']);

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn('owner');
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 to every facilities call when signed out', async () => {
    for (const [method, url] of [
      ['GET', '/api/facilities'],
      ['POST', '/api/facilities'],
      ['PATCH', `/api/facilities/${randomUUID()}`],
    ] as const) {
      const response = await platform.api.app.inject({ method, url, payload: method === 'GET' ? undefined : facility() });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('adds a facility that the list shows at once, with unit counts of zero', async () => {
    const input = facility({ phone: '', managerName: null });
    const created = await inject('POST', '/api/facilities', input);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id: expect.any(String),
      name: input.name,
      address: input.address,
      phone: null,
      managerName: null,
      totalUnits: 0,
      occupiedUnits: 0,
      timeZone: 'UTC',
      accessHours: null,
    });
    const list = await inject('GET', `/api/facilities?search=${encodeURIComponent(input.name)}`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([created.json()]);
    expect(list.headers['x-total-count']).toBe('1');
    const events = await platform.api.store.readStream(`facility-${created.json().id}`);
    expect(events.map((e) => e.type)).toEqual(['facility_added']);
    expect(events[0]!.metadata.actor.type).toBe('staff');
  });

  it('derives totalUnits and occupiedUnits from the units, never from the request', async () => {
    const created = (await inject('POST', '/api/facilities', facility())).json();
    const ctx = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
    const unitIds = [randomUUID(), randomUUID(), randomUUID()];
    for (const [i, unitId] of unitIds.entries()) {
      await addUnit(
        ctx(),
        {
          facilityId: created.id,
          unitNumber: `F-${created.id.slice(0, 6)}-${i}`,
          building: 'A',
          size: '10x10',
          monthlyRate: '120.00',
          status: 'available',
          description: null,
        },
        unitId,
      );
    }
    const { position } = await occupyUnit(ctx(), unitIds[0]!, { leaseId: randomUUID(), customerId: randomUUID() });
    if (position) await platform.api.afterAppend(position, 10_000);

    const [listed] = (await inject('GET', `/api/facilities?search=${encodeURIComponent(created.name)}`)).json();
    expect(listed).toMatchObject({ totalUnits: 3, occupiedUnits: 1 });

    const typedIn = await inject('PATCH', `/api/facilities/${created.id}`, { totalUnits: 99 });
    expect(typedIn.statusCode).toBe(400);
    expect(typedIn.json().field).toBe('totalUnits');
    const edited = await inject('PATCH', `/api/facilities/${created.id}`, { managerName: 'James Carter' });
    expect(edited.json()).toMatchObject({ managerName: 'James Carter', totalUnits: 3, occupiedUnits: 1 });
  });

  it('searches by name and address and pages on the server', async () => {
    const tag = randomUUID().slice(0, 6);
    for (const n of [1, 2, 3]) await inject('POST', '/api/facilities', facility({ name: `Paged ${tag} ${n}`, address: `${n} Harbor Rd` }));
    const firstPage = await inject('GET', `/api/facilities?search=paged%20${tag}&pageSize=2`);
    expect(firstPage.json().map((f: { name: string }) => f.name)).toEqual([`Paged ${tag} 1`, `Paged ${tag} 2`]);
    expect(firstPage.headers['x-total-count']).toBe('3');
    const secondPage = await inject('GET', `/api/facilities?search=paged%20${tag}&pageSize=2&page=2`);
    expect(secondPage.json().map((f: { name: string }) => f.name)).toEqual([`Paged ${tag} 3`]);
    expect(secondPage.headers['x-total-count']).toBe('3');
    const byAddress = await inject('GET', `/api/facilities?search=${encodeURIComponent('2 harbor')}`);
    expect(byAddress.json().map((f: { name: string }) => f.name)).toContain(`Paged ${tag} 2`);
    expect((await inject('GET', '/api/facilities?search=%25_')).json()).toEqual([]);
    const badPage = await inject('GET', '/api/facilities?page=0');
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json().field).toBe('page');
  });

  it('refuses a second facility with the same name (any case) with 409', async () => {
    const input = facility();
    expect((await inject('POST', '/api/facilities', input)).statusCode).toBe(201);
    const again = await inject('POST', '/api/facilities', { ...input, name: input.name.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ field: 'name' });
    expect(again.json().message).toContain('already exists');
  });

  it('lets exactly one of ten simultaneous adds with one name win', async () => {
    const input = facility();
    const responses = await Promise.all(Array.from({ length: 10 }, () => inject('POST', '/api/facilities', input)));
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    expect((await inject('GET', `/api/facilities?search=${encodeURIComponent(input.name)}`)).json()).toHaveLength(1);
  });

  it.each([
    ['a missing name', { ...facility(), name: undefined }, 'name'],
    ['a blank address', facility({ address: '  ' }), 'address'],
    ['a missing address', { ...facility(), address: undefined }, 'address'],
    ['an oversize name', facility({ name: 'x'.repeat(201) }), 'name'],
    ['a wrong type', facility({ phone: 5550100 }), 'phone'],
    ['typed-in unit counts', facility({ totalUnits: 10 }), 'totalUnits'],
    ['a time zone that is none', facility({ timeZone: 'Mars/Olympus_Mons' }), 'timeZone'],
    ['an empty time zone', facility({ timeZone: '' }), 'timeZone'],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_what, body, field) => {
    const before = await total();
    const response = await inject('POST', '/api/facilities', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
    expect(response.json().message).toContain(field);
    expect(await total()).toBe(before);
  });

  it('edits a facility: only the fields sent change, a rename frees the old name, a taken name is 409', async () => {
    const original = (await inject('POST', '/api/facilities', facility())).json();
    const other = (await inject('POST', '/api/facilities', facility())).json();

    const renamed = await inject('PATCH', `/api/facilities/${original.id}`, { name: `${original.name} North`, phone: null });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: `${original.name} North`, phone: null, address: original.address, managerName: original.managerName });
    const events = await platform.api.store.readStream(`facility-${original.id}`);
    expect(events.at(-1)!.data).toEqual({ facilityId: original.id, changes: { name: `${original.name} North`, phone: null } });
    expect((await inject('GET', `/api/facilities?search=${encodeURIComponent(`${original.name} North`)}`)).json()[0]).toMatchObject({
      id: original.id,
      phone: null,
    });

    expect((await inject('POST', '/api/facilities', facility({ name: original.name }))).statusCode).toBe(201);
    const taken = await inject('PATCH', `/api/facilities/${original.id}`, { name: other.name });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().field).toBe('name');
  });

  it('answers 400 for a bad id or an empty edit, 404 for a facility that does not exist', async () => {
    expect((await inject('PATCH', '/api/facilities/not-a-uuid', { phone: null })).json().field).toBe('id');
    const empty = await inject('PATCH', `/api/facilities/${randomUUID()}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('at least one field');
    expect((await inject('PATCH', `/api/facilities/${randomUUID()}`, { phone: null })).statusCode).toBe(404);
    expect((await inject('PATCH', `/api/facilities/${randomUUID()}`, { name: 'Nowhere Yard' })).statusCode).toBe(404);
  });

  it('lets managers add and edit facilities; clerks and auditors may list them but get 403 on changes', async () => {
    const manager = await platform.signIn('manager');
    const created = await inject('POST', '/api/facilities', facility(), manager);
    expect(created.statusCode).toBe(201);
    for (const role of ['clerk', 'auditor'] as const) {
      const session = await platform.signIn(role);
      expect((await inject('GET', '/api/facilities', undefined, session)).statusCode).toBe(200);
      const before = await total();
      expect((await inject('POST', '/api/facilities', facility(), session)).statusCode).toBe(403);
      expect((await inject('PATCH', `/api/facilities/${created.json().id}`, { phone: null }, session)).statusCode).toBe(403);
      expect(await total()).toBe(before);
    }
  });

  it('keeps the time zone given, changes it on an edit, and refuses a bad one with 400 writing nothing', async () => {
    const created = await inject('POST', '/api/facilities', facility({ timeZone: 'America/Los_Angeles' }));
    expect(created.statusCode).toBe(201);
    expect(created.json().timeZone).toBe('America/Los_Angeles');
    const { id } = created.json();
    const edited = await inject('PATCH', `/api/facilities/${id}`, { timeZone: 'America/Chicago' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().timeZone).toBe('America/Chicago');
    const listed = (await inject('GET', `/api/facilities?search=${encodeURIComponent(created.json().name)}`)).json();
    expect(listed[0].timeZone).toBe('America/Chicago');
    const bad = await inject('PATCH', `/api/facilities/${id}`, { timeZone: 'Nowhere/Atlantis' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('timeZone');
    const events = await platform.api.store.readStream(`facility-${id}`);
    expect(events.map((e) => e.type)).toEqual(['facility_added', 'facility_updated']);
    expect(events[1]?.data).toMatchObject({ changes: { timeZone: 'America/Chicago' } });
  });

  it('keeps the gate hours staff set, back to 24-hour access with null, and the list shows them', async () => {
    const hours = { opensAt: '06:00', closesAt: '22:00' };
    const created = await inject('POST', '/api/facilities', facility({ accessHours: hours }));
    expect(created.statusCode).toBe(201);
    expect(created.json().accessHours).toEqual(hours);
    const { id, name } = created.json();
    const listed = async () => (await inject('GET', `/api/facilities?search=${encodeURIComponent(name)}`)).json()[0].accessHours;
    expect(await listed()).toEqual(hours);

    const later = await inject('PATCH', `/api/facilities/${id}`, { accessHours: { opensAt: '07:30', closesAt: '21:00' } });
    expect(later.statusCode).toBe(200);
    expect(await listed()).toEqual({ opensAt: '07:30', closesAt: '21:00' });
    // The same hours again change nothing, so nothing is recorded.
    await inject('PATCH', `/api/facilities/${id}`, { accessHours: { opensAt: '07:30', closesAt: '21:00' } });
    expect((await inject('PATCH', `/api/facilities/${id}`, { accessHours: null })).json().accessHours).toBeNull();
    expect(await listed()).toBeNull();
    const events = await platform.api.store.readStream(`facility-${id}`);
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ accessHours: hours }),
      { facilityId: id, changes: { accessHours: { opensAt: '07:30', closesAt: '21:00' } } },
      { facilityId: id, changes: { accessHours: null } },
    ]);
  });

  it.each([
    ['a closing time before the opening time', { opensAt: '22:00', closesAt: '06:00' }, 'accessHours.closesAt'],
    ['the same opening and closing time', { opensAt: '09:00', closesAt: '09:00' }, 'accessHours.closesAt'],
    ['a time that is not on the 24-hour clock', { opensAt: '6:00', closesAt: '22:00' }, 'accessHours.opensAt'],
    ['an hour past 23', { opensAt: '06:00', closesAt: '24:00' }, 'accessHours.closesAt'],
    ['a missing closing time', { opensAt: '06:00' }, 'accessHours.closesAt'],
    ['a field the hours do not have', { opensAt: '06:00', closesAt: '22:00', days: 'weekdays' }, 'accessHours'],
    ['hours given as text', '6 AM to 10 PM', 'accessHours'],
  ])('refuses gate hours with %s with 400 naming the field, and writes nothing', async (_what, accessHours, field) => {
    const before = await total();
    const added = await inject('POST', '/api/facilities', facility({ accessHours }));
    expect(added.statusCode).toBe(400);
    expect(added.json().field).toBe(field);
    expect(await total()).toBe(before);

    const created = (await inject('POST', '/api/facilities', facility())).json();
    const edited = await inject('PATCH', `/api/facilities/${created.id}`, { accessHours });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().field).toBe(field);
    expect((await platform.api.store.readStream(`facility-${created.id}`)).map((e) => e.type)).toEqual(['facility_added']);
  });
});
