// The metric cards' captions, from the month-over-month changes the server computed.

/** '+12.5% from last month'; '—' when there is no earlier month to compare with. */
export function changeCaption(change: number | null): string {
  if (change === null) return '—';
  return `${change > 0 ? '+' : ''}${change.toFixed(1)}% from last month`;
}

/** A rate's change, in percentage points: '+10.0 pts from last month' (a rate from 60% to 70% rose 10 points, not 10%). */
export function pointsCaption(change: number | null): string {
  if (change === null) return '—';
  return `${change > 0 ? '+' : ''}${change.toFixed(1)} pts from last month`;
}

export function newCustomersCaption(count: number): string {
  return `${count} new this month`;
}
