import type { BuildingOccupancy } from '@storage/contracts/dashboard';
import { describe, expect, it } from 'vitest';
import { changeCaption, newCustomersCaption, pointsCaption } from './month-over-month.ts';
import { byFacility, occupancyColor, occupancyPercent, occupancyTitle } from './occupancy.ts';

const building = (facilityId: string | null, name: string, occupied: number, total: number): BuildingOccupancy => ({
  building: name,
  facilityId,
  facilityName: facilityId && `Facility ${facilityId}`,
  occupied,
  total,
});

describe('metric captions', () => {
  it('captions a change with its sign, one decimal and the month', () => {
    expect(changeCaption(12.5)).toBe('+12.5% from last month');
    expect(changeCaption(-8.1)).toBe('-8.1% from last month');
    expect(changeCaption(0)).toBe('0.0% from last month');
  });

  it("captions a rate's change in percentage points", () => {
    expect(pointsCaption(10)).toBe('+10.0 pts from last month');
    expect(pointsCaption(-2.5)).toBe('-2.5 pts from last month');
  });

  it('shows a dash when there is no earlier month to compare with', () => {
    expect(changeCaption(null)).toBe('—');
    expect(pointsCaption(null)).toBe('—');
  });

  it('counts new customers', () => {
    expect(newCustomersCaption(15)).toBe('15 new this month');
  });
});

describe('occupancy card', () => {
  it('colours 90 % and more green, 70 to under 90 yellow, below 70 orange', () => {
    expect(occupancyColor(90)).toBe('#16a34a');
    expect(occupancyColor(89.9)).toBe('#eab308');
    expect(occupancyColor(70)).toBe('#eab308');
    expect(occupancyColor(69.9)).toBe('#f97316');
  });

  it('gives a building its occupied share with one decimal, 0 without units', () => {
    expect(occupancyPercent({ occupied: 2, total: 3 })).toBe(66.7);
    expect(occupancyPercent({ occupied: 0, total: 0 })).toBe(0);
  });

  it("is titled 'Facility Occupancy' for one facility's buildings, else 'All Facilities Occupancy'", () => {
    expect(occupancyTitle([building('a', 'A', 1, 2)])).toBe('Facility Occupancy');
    expect(occupancyTitle([building('a', 'A', 1, 2), building('a', 'B', 1, 2)])).toBe('Facility Occupancy');
    expect(occupancyTitle([building('a', 'A', 1, 2), building('b', 'A', 1, 2)])).toBe('All Facilities Occupancy');
    expect(occupancyTitle([])).toBe('All Facilities Occupancy');
  });

  it('groups the buildings under their facility, in order, units of none under Unassigned', () => {
    const groups = byFacility([building('a', 'A', 1, 2), building('a', 'B', 1, 2), building(null, 'X', 0, 1)]);
    expect(groups.map((g) => [g.facilityName, g.buildings.map((b) => b.building)])).toEqual([
      ['Facility a', ['A', 'B']],
      ['Unassigned', ['X']],
    ]);
  });
});
