import { tz } from '@date-fns/tz';
import { addDays as addDaysTo, addMonths as addMonthsTo, differenceInCalendarDays, format, getDaysInMonth, lastDayOfMonth, parseISO } from 'date-fns';

// Calendar days as ISO dates (YYYY-MM-DD), and "today" in a facility's time zone. Day arithmetic
// runs in UTC, where every day has 24 hours, so a daylight-saving change never moves a date.

const utc = tz('UTC');
const day = (iso: string) => parseISO(iso, { in: utc });
const iso = (date: Date) => format(date, 'yyyy-MM-dd', { in: utc });

/** The date it is at `now` in `timeZone` (an IANA zone such as America/Los_Angeles). */
export function todayIn(timeZone: string, now: Date): string {
  return format(now, 'yyyy-MM-dd', { in: tz(timeZone) });
}

export function addDays(date: string, days: number): string {
  return iso(addDaysTo(day(date), days, { in: utc }));
}

/** The same day `months` later, or that month's last day when it is shorter (Jan 31 + 1 month: Feb 28). */
export function addMonths(date: string, months: number): string {
  return iso(addMonthsTo(day(date), months, { in: utc }));
}

export function endOfMonth(date: string): string {
  return iso(lastDayOfMonth(day(date), { in: utc }));
}

export function daysInMonth(date: string): number {
  return getDaysInMonth(day(date), { in: utc });
}

/** Days from `from` to `to`, both included. */
export function daysInclusive(from: string, to: string): number {
  return differenceInCalendarDays(day(to), day(from), { in: utc }) + 1;
}

export function dayOfMonth(date: string): number {
  return Number(date.slice(8, 10));
}

/** "Dec 1 – Dec 31, 2026" */
export function periodWords(start: string, end: string): string {
  const sameYear = start.slice(0, 4) === end.slice(0, 4);
  return `${format(day(start), sameYear ? 'MMM d' : 'MMM d, yyyy', { in: utc })} – ${format(day(end), 'MMM d, yyyy', { in: utc })}`;
}
