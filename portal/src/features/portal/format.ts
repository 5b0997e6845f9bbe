// US-English display of the portal's money and dates (spec section 9).

import { dayInWords } from '@storage/contracts/day-words';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const moment = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', hour12: true });

/** "$1,234.50" from a decimal string, exactly (Intl reads a numeric string as a decimal, not a float). */
export function formatDollars(amount: string): string {
  return dollars.format(amount as Intl.StringNumericLiteral);
}

/** "Mar 5, 2026" from a calendar date (YYYY-MM-DD), the same day in every time zone. */
export const formatCalendarDay = dayInWords;

/** "Mar 5, 2026" from a timestamp, in the viewer's time zone. */
export function formatDay(timestamp: string): string {
  return day.format(new Date(timestamp));
}

/** "Mar 5, 2026, 2:07 PM" from a timestamp, in the viewer's time zone. */
export function formatMoment(timestamp: string): string {
  return moment.format(new Date(timestamp));
}

export function hasBalance(amount: string): boolean {
  return /[1-9]/.test(amount);
}

/** "A-101": a unit as the renter finds it on site. */
export function unitLabel(unit: { building: string; unitNumber: string }): string {
  return `${unit.building}-${unit.unitNumber}`;
}
