import { describe, expect, it } from 'vitest';
import { readModelProjections } from './projections.ts';
import { projectionLanes, retryDelayMs } from './runner.ts';

describe('projection lanes', () => {
  it('puts each projection with those whose tables it reads, and leaves the others alone', () => {
    expect(projectionLanes(readModelProjections).map((lane) => lane.map((p) => p.name))).toEqual([
      ['staff'],
      [
        'settings',
        'facilities',
        'units',
        'customers',
        'leases',
        'invoices',
        'ledger',
        'autopay',
        'locks',
        'access',
        'delinquency',
        'activities',
        'notifications',
      ],
      ['gateway_keys'],
      ['reservations'],
      ['billing_runs'],
      ['metrics'],
    ]);
  });

  it('keeps the order of application inside a lane, and ignores tables no given projection owns', () => {
    const [units, customers, locks, activities] = ['units', 'customers', 'locks', 'activities'].map(
      (name) => readModelProjections.find((p) => p.name === name)!,
    );
    expect(projectionLanes([locks!, units!]).map((lane) => lane.map((p) => p.name))).toEqual([['locks', 'units']]);
    expect(projectionLanes([customers!, locks!]).map((lane) => lane.map((p) => p.name))).toEqual([['customers'], ['locks']]);
    expect(projectionLanes([activities!]).map((lane) => lane.map((p) => p.name))).toEqual([['activities']]);
  });
});

describe('retry delay', () => {
  it('doubles from 1 s after each failed attempt, up to 5 minutes', () => {
    expect([1, 2, 3, 4, 8, 9, 10, 50].map((attempts) => retryDelayMs(attempts))).toEqual([1000, 2000, 4000, 8000, 128_000, 256_000, 300_000, 300_000]);
    expect(retryDelayMs(3, { firstDelayMs: 200, maxDelayMs: 500 })).toBe(500);
  });
});
