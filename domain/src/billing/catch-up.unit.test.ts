import { describe, expect, it } from 'vitest';
import { catchUpDays } from './run.ts';

// Which days a billing run bills, given the last day billed: each missed day whole, in order, so
// no day's late rules come before its own issuing and autopay charges.

describe('the days a billing run bills', () => {
  it('bills only today after yesterday was billed, when today already was (a rerun), or when no day was', () => {
    expect(catchUpDays('2026-06-19', '2026-06-20')).toEqual(['2026-06-20']);
    expect(catchUpDays('2026-06-20', '2026-06-20')).toEqual(['2026-06-20']);
    expect(catchUpDays(null, '2026-06-20')).toEqual(['2026-06-20']);
  });

  it('bills every day missed since the last one, one after the other, up to today', () => {
    expect(catchUpDays('2026-05-28', '2026-06-02')).toEqual(['2026-05-29', '2026-05-30', '2026-05-31', '2026-06-01', '2026-06-02']);
    // Six weeks down: forty-two days, the first the day after the last billed, the last today.
    const days = catchUpDays('2026-05-09', '2026-06-20');
    expect(days).toHaveLength(42);
    expect([days[0], days.at(-1)]).toEqual(['2026-05-10', '2026-06-20']);
  });

  it('never goes back: a day asked for before the last one billed is billed alone', () => {
    expect(catchUpDays('2026-07-01', '2026-06-20')).toEqual(['2026-06-20']);
  });
});
