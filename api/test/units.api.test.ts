import { randomUUID } from 'node:crypto';
import { addFacility } from '@storage/domain/facilities/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelCaughtUp } from './read-model.ts';

const tag = () => Math.random().toString(36).slice(2, 8).toUpperCase();

const unit = (overrides: Record<string, unknown> = {}) => ({
  unitNumber: `U-${tag()}`,
  building: 'A',
  size: '10x10',
  monthlyRate: '120.00',
  status: 'available',
  description: 'Climate controlled',
  ...overrides,
});

describe('units API', () => {
  let platform: TestPlatform;
  let cookie: string;
  let facilityId: string;
  let otherFacilityId: string;
  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie } });
  const read = async (url: string) => {
    await readModelCaughtUp(platform);
    return inject('GET', url);
  };
  const totalOf = async (url: string) => (await read(url)).headers['x-total-count'];

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn();
    const ctx = { store: platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    facilityId = randomUUID();
    otherFacilityId = randomUUID();
    await addFacility(ctx, { name: 'Units Test North', address: '1 North Rd', phone: null, managerName: null }, facilityId);
    const { position } = await addFacility(ctx, { name: 'Units Test South', address: '2 South Rd', phone: null, managerName: null }, otherFacilityId);
    await platform.api.afterAppend(position!, 10_000);
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 to every units call when signed out', async () => {
    const id = randomUUID();
    for (const [method, url] of [
      ['GET', '/api/units'],
      ['GET', '/api/units/buildings'],
      ['GET', `/api/units/${id}`],
      ['POST', '/api/units'],
      ['PUT', `/api/units/${id}/status`],
    ] as const) {
      const response = await platform.api.app.inject({ method, url, payload: method === 'GET' ? undefined : unit() });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('creates a unit with the form defaults that the list shows at once', async () => {
    const number = `A-${tag()}`;
    const created = await inject('POST', '/api/units', { unitNumber: number, building: 'A', monthlyRate: 99.5, facilityId });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      unitNumber: number,
      building: 'A',
      size: '10x10',
      status: 'available',
      monthlyRate: '99.50',
      description: null,
      facilityId,
    });
    expect(created.json().id).toMatch(/^[0-9a-f-]{36}$/);

    const list = await inject('GET', `/api/units?search=${number}`);
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json()).toEqual([created.json()]);
    expect((await inject('GET', `/api/units/${created.json().id}`)).json()).toEqual(created.json());
  });

  it('refuses a unit number that is taken, also when the case differs', async () => {
    const input = unit();
    expect((await inject('POST', '/api/units', input)).statusCode).toBe(201);
    const again = await inject('POST', '/api/units', { ...input, unitNumber: input.unitNumber.toLowerCase(), building: 'B' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: `A unit numbered ${input.unitNumber.toLowerCase()} already exists`, field: 'unitNumber' });
  });

  it('lets exactly one of ten simultaneous creates with one unit number win', async () => {
    const input = unit();
    const responses = await Promise.all(Array.from({ length: 10 }, () => inject('POST', '/api/units', input)));
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes, responses.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toEqual([201, ...Array<number>(9).fill(409)]);
    expect((await read(`/api/units?search=${input.unitNumber}`)).json()).toHaveLength(1);
  });

  it.each([
    ['a missing unit number', { ...unit(), unitNumber: undefined }, 'unitNumber', 'unitNumber: is required'],
    ['a blank building', unit({ building: '  ' }), 'building', 'building: is required'],
    ['a size the enum does not have', unit({ size: '7x7' }), 'size', 'size: must be one of: 5x5, 5x10'],
    ['a rate with three decimals', unit({ monthlyRate: '120.005' }), 'monthlyRate', 'monthlyRate: must be an amount'],
    ['a rate that is not a number', unit({ monthlyRate: 'abc' }), 'monthlyRate', 'monthlyRate: must be an amount'],
    ['a negative rate', unit({ monthlyRate: '-5.00' }), 'monthlyRate', 'monthlyRate: must not be negative'],
    ['a zero rate', unit({ monthlyRate: '0.00' }), 'monthlyRate', 'The monthly rate must be more than 0.00'],
    ['an unknown status', unit({ status: 'sold' }), 'status', 'status: must be one of: available, occupied'],
    ['an occupied unit without a lease', unit({ status: 'occupied' }), 'status', 'A unit becomes occupied only when a lease starts'],
    ['a facility id that is not a uuid', unit({ facilityId: 'north' }), 'facilityId', 'facilityId:'],
    ['an unknown field', unit({ floor: 2 }), 'floor', 'Unknown field: floor'],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_what, body, field, message) => {
    const before = await totalOf('/api/units');
    const response = await inject('POST', '/api/units', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
    expect(response.json().message).toContain(message);
    expect(await totalOf('/api/units')).toBe(before);
  });

  it('refuses a facility that does not exist with 404', async () => {
    const response = await inject('POST', '/api/units', unit({ facilityId: randomUUID() }));
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Facility not found');
  });

  it('searches by unit number, building and size, scopes by facility and filters by status on the server', async () => {
    const t = tag();
    const north = [
      unit({ unitNumber: `N-${t}-1`, building: `North ${t}`, size: '5x5', facilityId }),
      unit({ unitNumber: `N-${t}-2`, building: `North ${t}`, size: '20x30', facilityId, status: 'maintenance' }),
    ];
    const south = unit({ unitNumber: `S-${t}-1`, building: `North ${t}`, size: '5x5', facilityId: otherFacilityId });
    for (const body of [...north, south]) expect((await inject('POST', '/api/units', body)).statusCode).toBe(201);

    const numbers = async (query: string) => (await read(`/api/units?${query}`)).json().map((u: { unitNumber: string }) => u.unitNumber);
    expect(await numbers(`search=n-${t.toLowerCase()}`)).toEqual([`N-${t}-1`, `N-${t}-2`]);
    // Building North of each facility is a heading of its own: one facility's units, then the other's.
    const northUnits = [`N-${t}-1`, `N-${t}-2`];
    const everyNorth = facilityId < otherFacilityId ? [...northUnits, `S-${t}-1`] : [`S-${t}-1`, ...northUnits];
    expect(await numbers(`search=${encodeURIComponent(`north ${t}`)}`)).toEqual(everyNorth);
    expect(await numbers(`search=20x30&facilityId=${facilityId}`)).toEqual([`N-${t}-2`]);
    expect(await numbers(`search=${t}&facilityId=${otherFacilityId}`)).toEqual([`S-${t}-1`]);
    expect(await numbers(`search=${t}&status=maintenance`)).toEqual([`N-${t}-2`]);
    expect(await numbers('search=%25')).toEqual([]);
  });

  it('pages the list on the server with the total in x-total-count', async () => {
    const t = tag();
    for (let i = 1; i <= 5; i++) await inject('POST', '/api/units', unit({ unitNumber: `P-${t}-${i}`, building: 'Paged' }));
    const page = async (n: number) => read(`/api/units?search=p-${t}&page=${n}&pageSize=2`);
    const [first, third, beyond] = [await page(1), await page(3), await page(4)];
    expect(first.json().map((u: { unitNumber: string }) => u.unitNumber)).toEqual([`P-${t}-1`, `P-${t}-2`]);
    expect(third.json().map((u: { unitNumber: string }) => u.unitNumber)).toEqual([`P-${t}-5`]);
    expect(beyond.json()).toEqual([]);
    for (const response of [first, third, beyond]) expect(response.headers['x-total-count']).toBe('5');
    for (const bad of ['pageSize=0', 'pageSize=201', 'page=abc', 'status=sold', 'facilityId=x', 'colour=red']) {
      const response = await read(`/api/units?${bad}`);
      expect(response.statusCode, bad).toBe(400);
    }
  });

  it('counts the units of each building heading over the whole filtered list', async () => {
    const t = tag();
    for (const [building, n] of [
      [`Alpha ${t}`, 3],
      [`Beta ${t}`, 1],
    ] as const) {
      for (let i = 0; i < n; i++) await inject('POST', '/api/units', unit({ unitNumber: `B-${t}-${building[0]}${i}`, building, facilityId }));
    }
    const buildings = await read(`/api/units/buildings?search=${t}&facilityId=${facilityId}`);
    expect(buildings.statusCode).toBe(200);
    expect(buildings.json()).toEqual([
      { facilityId, building: `Alpha ${t}`, unitCount: 3 },
      { facilityId, building: `Beta ${t}`, unitCount: 1 },
    ]);
    expect((await read(`/api/units/buildings?search=${t}&facilityId=${otherFacilityId}`)).json()).toEqual([]);
    // Building Alpha of another facility is a heading of its own, and the list keeps each facility's units together.
    await inject('POST', '/api/units', unit({ unitNumber: `B-${t}-X`, building: `Alpha ${t}`, facilityId: otherFacilityId }));
    const everywhere = (await read(`/api/units/buildings?search=${t}`)).json() as { facilityId: string; building: string; unitCount: number }[];
    expect(everywhere).toHaveLength(3);
    expect(everywhere.filter((b) => b.building === `Alpha ${t}`).map((b) => [b.facilityId, b.unitCount])).toEqual(
      expect.arrayContaining([
        [facilityId, 3],
        [otherFacilityId, 1],
      ]),
    );
    const listed = (await inject('GET', `/api/units?search=${t}`)).json() as { facilityId: string; building: string }[];
    const headings = listed.map((u) => `${u.facilityId}/${u.building}`);
    expect(headings).toEqual(everywhere.flatMap((b) => Array(b.unitCount).fill(`${b.facilityId}/${b.building}`)));
    expect((await read('/api/units/buildings?page=2')).statusCode).toBe(400);
  });

  it('puts a unit into maintenance and back, and records the reason', async () => {
    const created = (await inject('POST', '/api/units', unit())).json();
    const repair = await inject('PUT', `/api/units/${created.id}/status`, { status: 'maintenance', reason: 'Door repair' });
    expect(repair.statusCode).toBe(200);
    expect(repair.json()).toMatchObject({ id: created.id, status: 'maintenance' });
    expect((await read(`/api/units?search=${created.unitNumber}`)).json()[0].status).toBe('maintenance');
    const back = await inject('PUT', `/api/units/${created.id}/status`, { status: 'available' });
    expect(back.json().status).toBe('available');

    const events = await platform.api.store.readStream(`unit-${created.id}`);
    expect(events.map((e) => [e.type, e.data.status, e.data.reason])).toEqual([
      ['unit_added', 'available', undefined],
      ['unit_status_changed', 'maintenance', 'Door repair'],
      ['unit_status_changed', 'available', null],
    ]);
    expect(events[1]!.metadata.actor.type).toBe('staff');
  });

  it('refuses to mark a unit occupied by hand, in the aggregate’s words', async () => {
    const created = (await inject('POST', '/api/units', unit())).json();
    const response = await inject('PUT', `/api/units/${created.id}/status`, { status: 'occupied' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'A unit becomes occupied only when a lease starts', field: 'status' });
    expect((await read(`/api/units/${created.id}`)).json().status).toBe('available');
  });

  it('sets what a unit offers, which the units list and the public unit list show, once per change', async () => {
    const features = { climateControlled: true, driveUp: false, floor: 2, lockType: 'smart' };
    const created = (await inject('POST', '/api/units', unit({ facilityId, features: { ...features, floor: 1 } }))).json();
    expect(created.features).toEqual({ ...features, floor: 1 });
    const set = await inject('PUT', `/api/units/${created.id}/features`, features);
    expect(set.statusCode).toBe(200);
    expect(set.json().features).toEqual(features);
    // The same again records nothing.
    expect((await inject('PUT', `/api/units/${created.id}/features`, features)).statusCode).toBe(200);
    const events = await platform.api.store.readStream(`unit-${created.id}`);
    expect(events.map((e) => e.type)).toEqual(['unit_added', 'unit_features_changed']);

    expect((await read(`/api/units/${created.id}`)).json().features).toEqual(features);
    const listed = (await inject('GET', `/api/public/units/available?facilityId=${facilityId}`)).json() as { id: string; features: unknown }[];
    expect(listed.find((u) => u.id === created.id)?.features).toEqual(features);
    // A unit added without them claims none.
    const plain = (await inject('POST', '/api/units', unit({ facilityId }))).json();
    await readModelCaughtUp(platform);
    const plainListed = ((await inject('GET', `/api/public/units/available?facilityId=${facilityId}`)).json() as { id: string; features: unknown }[]).find(
      (u) => u.id === plain.id,
    );
    expect(plainListed?.features).toEqual({ climateControlled: false, driveUp: false, floor: null, lockType: null });
  });

  it.each([
    ['a floor below the ground floor', { floor: 0 }, 'floor: must be 1 (the ground floor) or higher'],
    ['a floor that is not whole', { floor: 1.5 }, 'floor: must be a whole number'],
    ['a floor past 99', { floor: 100 }, 'floor: must be at most 99'],
    ['an unknown lock type', { lockType: 'laser' }, 'lockType: must be one of'],
    ['climate control that is not yes or no', { climateControlled: 'yes' }, 'climateControlled:'],
    ['a feature left out', { driveUp: undefined }, 'driveUp:'],
    ['an unknown feature', { sauna: true }, 'Unknown field: sauna'],
  ])('refuses %s with 400 naming the field, and records nothing', async (_case, change, message) => {
    const created = (await inject('POST', '/api/units', unit())).json();
    const body = { climateControlled: false, driveUp: false, floor: null, lockType: null, ...change };
    const response = await inject('PUT', `/api/units/${created.id}/features`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect((await platform.api.store.readStream(`unit-${created.id}`)).map((e) => e.type)).toEqual(['unit_added']);
  });

  it('lets an auditor change no unit, and answers 404 for an unknown one', async () => {
    const created = (await inject('POST', '/api/units', unit())).json();
    const body = { climateControlled: true, driveUp: true, floor: null, lockType: null };
    const auditor = await platform.signIn('auditor');
    const refused = await platform.api.app.inject({ method: 'PUT', url: `/api/units/${created.id}/features`, payload: body, headers: { cookie: auditor } });
    expect(refused.statusCode).toBe(403);
    expect((await inject('PUT', `/api/units/${randomUUID()}/features`, body)).statusCode).toBe(404);
  });

  it('answers 404 for an unknown unit and 400 for a bad id or body', async () => {
    expect((await inject('PUT', `/api/units/${randomUUID()}/status`, { status: 'maintenance' })).statusCode).toBe(404);
    expect((await read(`/api/units/${randomUUID()}`)).statusCode).toBe(404);
    expect((await inject('PUT', '/api/units/not-a-uuid/status', { status: 'maintenance' })).statusCode).toBe(400);
    const created = (await inject('POST', '/api/units', unit())).json();
    const bad = await inject('PUT', `/api/units/${created.id}/status`, { status: 'gone' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('status');
  });
});
