import { TZDate, tz } from '@date-fns/tz';
// One module each, not the package's index: importing the index loads its few hundred modules,
// and Node reads date-fns's 146 KB exports map again for each of them (0.4-0.6 s of CPU at every
// start of the API, and so of every test file).
import { addDays as addDaysTo } from 'date-fns/addDays';
import { addMonths as addMonthsTo } from 'date-fns/addMonths';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { format } from 'date-fns/format';
import { getDaysInMonth } from 'date-fns/getDaysInMonth';
import { lastDayOfMonth } from 'date-fns/lastDayOfMonth';
import { parseISO } from 'date-fns/parseISO';

// Calendar days as ISO dates (YYYY-MM-DD), and "today" in a facility's time zone. Day arithmetic
// runs in UTC, where every day has 24 hours, so a daylight-saving change never moves a date.

const utc = tz('UTC');
const day = (iso: string) => parseISO(iso, { in: utc });
const iso = (date: Date) => format(date, 'yyyy-MM-dd', { in: utc });

/**
 * Remembers a calendar function's answers: a billing run asks the same few hundred dates again for
 * each of thousands of leases, and a zoned date costs tens of microseconds to make. Bounded: the
 * memory is let go when it grows past its limit.
 */
function remembered<A extends (string | number)[], R>(compute: (...args: A) => R): (...args: A) => R {
  const answers = new Map<string, R>();
  return (...args: A) => {
    const key = args.join('|');
    let answer = answers.get(key);
    if (answer === undefined) {
      if (answers.size >= 10_000) answers.clear();
      answer = compute(...args);
      answers.set(key, answer);
    }
    return answer;
  };
}

/** The date it is at `now` in `timeZone` (an IANA zone such as America/Los_Angeles). */
export function todayIn(timeZone: string, now: Date): string {
  return format(now, 'yyyy-MM-dd', { in: tz(timeZone) });
}

/**
 * A time on `date` in `timeZone`: `now` itself when it falls on that day there, else noon of that
 * day. What a day run ahead of (or behind) the clock stamps on its events, so the ledger dates
 * them on the day they belong to.
 */
export function instantOn(date: string, timeZone: string, now: Date): Date {
  if (todayIn(timeZone, now) === date) return now;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, 12, 0, 0, timeZone).getTime());
}

export const addDays: (date: string, days: number) => string = remembered((date: string, days: number) => iso(addDaysTo(day(date), days, { in: utc })));

/** The same day `months` later, or that month's last day when it is shorter (Jan 31 + 1 month: Feb 28). */
export const addMonths: (date: string, months: number) => string = remembered((date: string, months: number) =>
  iso(addMonthsTo(day(date), months, { in: utc })),
);

export const endOfMonth: (date: string) => string = remembered((date: string) => iso(lastDayOfMonth(day(date), { in: utc })));

export const daysInMonth: (date: string) => number = remembered((date: string) => getDaysInMonth(day(date), { in: utc }));

/** Days from `from` to `to`, both included. */
export const daysInclusive: (from: string, to: string) => number = remembered(
  (from: string, to: string) => differenceInCalendarDays(day(to), day(from), { in: utc }) + 1,
);

export function dayOfMonth(date: string): number {
  return Number(date.slice(8, 10));
}

/** "Dec 1 – Dec 31, 2026" */
export const periodWords: (start: string, end: string) => string = remembered((start: string, end: string) => {
  const sameYear = start.slice(0, 4) === end.slice(0, 4);
  return `${format(day(start), sameYear ? 'MMM d' : 'MMM d, yyyy', { in: utc })} – ${format(day(end), 'MMM d, yyyy', { in: utc })}`;
});
