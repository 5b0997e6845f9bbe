import { randomUUID } from 'node:crypto';
import { isoDay } from '@storage/api/dashboard/month-over-month';
import { endLease } from '@storage/domain/leases/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyWriter } from './history.ts';

// Units added, let and vacated over several days in two facilities: asked as of a past day, the
// dashboard shows each building's units and occupied units as they stood at that day's end.

const DAY = 86_400_000;
const now = new Date();
const today = isoDay(now);
/** Noon (UTC) `n` days ago. */
const daysAgo = (n: number) => new Date(Date.parse(`${today}T12:00:00Z`) - n * DAY);
const dayAgo = (n: number) => isoDay(daysAgo(n));

describe('dashboard building occupancy as of a past day', () => {
  let platform: TestPlatform;
  let cookie: string;
  let north: string;
  let south: string;
  const metrics = async (query: string) => {
    const response = await platform.api.app.inject({ method: 'GET', url: `/api/dashboard/metrics?${query}`, headers: { cookie } });
    expect(response.statusCode, query).toBe(200);
    return response.json();
  };
  const northBuilding = (building: string, occupied: number, total: number) => ({
    building,
    facilityId: north,
    facilityName: 'North Buildings',
    occupied,
    total,
  });
  const southBuilding = (building: string, occupied: number, total: number) => ({
    building,
    facilityId: south,
    facilityName: 'South Buildings',
    occupied,
    total,
  });

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn();
    const history = historyWriter(platform);
    const tenant = async (date: Date, facilityId: string, name: string) =>
      history.customer(date, facilityId, { firstName: name, email: `${name.toLowerCase()}.buildings-${randomUUID().slice(0, 6)}@example.com` });

    // 10 days ago: North's building A of three units, two let; South's building A of two, one let.
    north = await history.facility(daysAgo(10), 'North Buildings');
    south = await history.facility(daysAgo(10), 'South Buildings');
    const [a1, a2, a3] = [
      await history.unit(daysAgo(10), north, 'N-A1', 'A'),
      await history.unit(daysAgo(10), north, 'N-A2', 'A'),
      await history.unit(daysAgo(10), north, 'N-A3', 'A'),
    ];
    const adaLease = await history.lease(daysAgo(10), await tenant(daysAgo(10), north, 'Ada'), a1!, '100.00');
    const bobLease = await history.lease(daysAgo(10), await tenant(daysAgo(10), north, 'Bob'), a2!, '100.00');
    const [s1, s2] = [await history.unit(daysAgo(10), south, 'S-A1', 'A'), await history.unit(daysAgo(10), south, 'S-A2', 'A')];
    await history.lease(daysAgo(10), await tenant(daysAgo(10), south, 'Cy'), s1!, '90.00');

    // 6 days ago: North opens building B (two units, one let); Ada moves out of A1.
    const [b1, b2] = [await history.unit(daysAgo(6), north, 'N-B1', 'B'), await history.unit(daysAgo(6), north, 'N-B2', 'B')];
    await history.lease(daysAgo(6), await tenant(daysAgo(6), north, 'Dee'), b1!, '120.00');
    await endLease(history.at(daysAgo(6)), adaLease, dayAgo(6));

    // 3 days ago: a fourth unit in A, and A3 let.
    await history.unit(daysAgo(3), north, 'N-A4', 'A');
    await history.lease(daysAgo(3), await tenant(daysAgo(3), north, 'Eve'), a3!, '100.00');

    // Today: Bob moves out of A2, B2 and South's S-A2 are let.
    await endLease(history.at(now), bobLease, today);
    await history.lease(now, await tenant(now, north, 'Fay'), b2!, '120.00');
    await history.lease(now, await tenant(now, south, 'Gus'), s2!, '90.00');
    await history.settle();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it("answers today's buildings without asOf and as of today", async () => {
    const body = await metrics(`facilityId=${north}`);
    expect(body.buildingOccupancy).toEqual([northBuilding('A', 1, 4), northBuilding('B', 2, 2)]);
    expect((await metrics(`facilityId=${north}&asOf=${today}`)).buildingOccupancy).toEqual(body.buildingOccupancy);
  });

  it('answers each building as it stood at the end of a past day, leaving out buildings not there yet', async () => {
    const asOf = async (days: number) => (await metrics(`facilityId=${north}&asOf=${dayAgo(days)}`)).buildingOccupancy;
    expect(await asOf(11)).toEqual([]);
    expect(await asOf(10)).toEqual([northBuilding('A', 2, 3)]);
    expect(await asOf(7)).toEqual([northBuilding('A', 2, 3)]);
    expect(await asOf(6)).toEqual([northBuilding('A', 1, 3), northBuilding('B', 1, 2)]);
    expect(await asOf(3)).toEqual([northBuilding('A', 2, 4), northBuilding('B', 1, 2)]);
    expect(await asOf(1)).toEqual([northBuilding('A', 2, 4), northBuilding('B', 1, 2)]);
  });

  it('keeps to the facility in scope, and shows every facility without one', async () => {
    expect((await metrics(`facilityId=${south}&asOf=${dayAgo(6)}`)).buildingOccupancy).toEqual([southBuilding('A', 1, 2)]);
    expect((await metrics(`facilityId=${south}`)).buildingOccupancy).toEqual([southBuilding('A', 2, 2)]);
    expect((await metrics(`asOf=${dayAgo(6)}`)).buildingOccupancy).toEqual([northBuilding('A', 1, 3), northBuilding('B', 1, 2), southBuilding('A', 1, 2)]);
    expect((await metrics(`asOf=${dayAgo(10)}`)).buildingOccupancy).toEqual([northBuilding('A', 2, 3), southBuilding('A', 1, 2)]);
  });

  it("adds up to the day's occupancy rate", async () => {
    for (const days of [10, 6, 3]) {
      const body = await metrics(`facilityId=${north}&asOf=${dayAgo(days)}`);
      const buildings: Array<{ occupied: number; total: number }> = body.buildingOccupancy;
      const occupied = buildings.reduce((n, b) => n + b.occupied, 0);
      const total = buildings.reduce((n, b) => n + b.total, 0);
      expect(body.occupancyRate, dayAgo(days)).toBe(Math.round((occupied / total) * 1000) / 10);
    }
  });
});
