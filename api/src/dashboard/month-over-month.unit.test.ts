import { describe, expect, it } from 'vitest';
import { monthEndFigures, monthStart, monthsUpTo, occupancyRate, percentChange, pointsChange, sameDayLastMonth } from './month-over-month.ts';

describe('calendar months', () => {
  it('finds the first day of a month, this one or another', () => {
    expect(monthStart('2025-03-31')).toBe('2025-03-01');
    expect(monthStart('2025-01-15', -1)).toBe('2024-12-01');
    expect(monthStart('2025-12-15', 1)).toBe('2026-01-01');
  });

  it('compares with the same day of last month, or its last day when shorter', () => {
    expect(sameDayLastMonth('2025-06-14')).toBe('2025-05-14');
    expect(sameDayLastMonth('2025-03-31')).toBe('2025-02-28');
    expect(sameDayLastMonth('2024-03-30')).toBe('2024-02-29');
    expect(sameDayLastMonth('2025-01-31')).toBe('2024-12-31');
  });

  it('lists the last months, oldest first', () => {
    expect(monthsUpTo('2025-02-10', 3)).toEqual(['2024-12', '2025-01', '2025-02']);
  });
});

describe('month-over-month changes', () => {
  it('gives the change in percent with one decimal', () => {
    expect(percentChange(112_50, 100_00)).toBe(12.5);
    expect(percentChange(91_90, 100_00)).toBe(-8.1);
    expect(percentChange(100, 300)).toBe(-66.7);
  });

  it('has no percent change from nothing', () => {
    expect(percentChange(500, 0)).toBeNull();
  });

  it('gives occupancy in percent with one decimal, none without units', () => {
    expect(occupancyRate(2, 3)).toBe(66.7);
    expect(occupancyRate(0, 0)).toBeNull();
  });

  it('compares occupancy rates as shown, in points', () => {
    expect(pointsChange(66.7, 33.3)).toBe(33.4);
    expect(pointsChange(40, null)).toBeNull();
  });

  it('walks a figure back from today through each month’s net change', () => {
    const months = ['2025-01', '2025-02', '2025-03'];
    const changes = new Map([
      ['2025-03', 2],
      ['2025-01', 5],
    ]);
    expect(monthEndFigures(months, 10, changes)).toEqual([8, 8, 10]);
  });
});
