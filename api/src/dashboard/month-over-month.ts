// Calendar months (UTC) and the comparisons the dashboard and the reports make between them.

/** YYYY-MM-DD of a date, in UTC. */
export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** The first day (YYYY-MM-DD) of the month `offset` months from the one `day` is in. */
export function monthStart(day: string, offset = 0): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return isoDay(new Date(Date.UTC(year, month - 1 + offset, 1)));
}

/** The same day of the previous month, or that month's last day when it is shorter. */
export function sameDayLastMonth(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(year, month - 1, 0)).getUTCDate();
  return isoDay(new Date(Date.UTC(year, month - 2, Math.min(date, lastDay))));
}

/** The `count` months (YYYY-MM) up to the one `day` is in, oldest first. */
export function monthsUpTo(day: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => monthStart(day, i - count + 1).slice(0, 7));
}

export const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/** Change from `previous` to `current` in percent, one decimal; null when there is nothing to compare with. */
export function percentChange(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return oneDecimal(((current - previous) / previous) * 100);
}

/** Occupied share of the units in percent, one decimal; null without units. */
export function occupancyRate(occupied: number, total: number): number | null {
  return total === 0 ? null : oneDecimal((occupied / total) * 100);
}

/** Difference of two rates in percentage points, as the two rates are shown (one decimal). */
export function pointsChange(current: number | null, previous: number | null): number | null {
  return current === null || previous === null ? null : oneDecimal(current - previous);
}

/**
 * Walks a stock figure back from today: at the end of each month it was the next month's end
 * figure less that next month's net change. `changes` holds each month's net change.
 */
export function monthEndFigures(months: readonly string[], current: number, changes: ReadonlyMap<string, number>): number[] {
  const figures = new Array<number>(months.length);
  let figure = current;
  for (let i = months.length - 1; i >= 0; i--) {
    figures[i] = figure;
    figure -= changes.get(months[i]!) ?? 0;
  }
  return figures;
}
