import { formatDollars } from '@storage/contracts/cents';
import { dayInWords } from '@storage/contracts/day-words';

// The spec's display formats (section 9), in one place for every screen.

export { formatDollars };

/** Invoice and lease dates: 'Mon D, YYYY' (US). Accepts YYYY-MM-DD or an ISO timestamp. */
export function formatDate(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return dayInWords(value);
  return new Date(value).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

/** Notification times: 12-hour, e.g. '3:05 PM'. */
export function formatTime12h(value: string): string {
  return new Date(value).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', hour12: true });
}

/** Activity feed and lock 'Last seen' ages: 'Just now' under 1 h, 'Nh ago' under 24 h, else 'Nd ago'. */
export function ageLabel(value: string | null, now: Date = new Date()): string {
  if (!value) return 'Never';
  const hours = Math.floor((now.getTime() - new Date(value).getTime()) / 3_600_000);
  if (hours < 1) return 'Just now';
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

/** Occupancy rate: one decimal plus %. */
export function formatPercent(value: number): string {
  return `${value.toFixed(1)}%`;
}

/** A period of days, both included: 'Dec 1 – Dec 31, 2026' (the year once when both share it). */
export function formatPeriod(start: string, end: string): string {
  const [startYear, endYear] = [start.slice(0, 4), end.slice(0, 4)];
  if (startYear !== endYear) return `${formatDate(start)} – ${formatDate(end)}`;
  const monthDay = new Date(`${start}T00:00:00`).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
  return `${monthDay} – ${formatDate(end)}`;
}
