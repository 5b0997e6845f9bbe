import type { Activity, ActivityTab } from '@storage/contracts/activities';
import type { ActivityType } from '@storage/contracts/enums';
import { formatDate, formatDollars } from '../../lib/format.ts';

/** 'lock_status_changed' → 'Lock Status Changed'. */
export function activityTypeLabel(type: ActivityType): string {
  return type.split('_').map(capitalize).join(' ');
}

export const activityTabs: ReadonlyArray<{ tab: ActivityTab; label: string; empty: string }> = [
  { tab: 'all', label: 'All', empty: 'No activities found' },
  { tab: 'customers', label: 'Customers', empty: 'No customer activity' },
  { tab: 'leases', label: 'Leases', empty: 'No lease activity' },
  { tab: 'payments', label: 'Payments', empty: 'No payment activity' },
  { tab: 'access', label: 'Access', empty: 'No access activity' },
];

/** Whom the entry is about: the renter, else the staff member who did it, else 'Unknown User'. */
export function customerName(activity: Activity): string {
  if (activity.customer) return `${activity.customer.firstName} ${activity.customer.lastName}`.trim();
  return activity.staff?.name ?? 'Unknown User';
}

/** The renter's email, else the staff member's, else 'No email'. */
export function activityEmail(activity: Activity): string {
  return activity.customer?.email ?? activity.staff?.email ?? 'No email';
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** 'moveInDate' → 'Move In Date'. */
function keyLabel(key: string): string {
  return capitalize(key.replace(/([a-z0-9])([A-Z])/g, '$1 $2'));
}

function detailValue(key: string, value: unknown): string {
  if (key === 'amount' && /^-?\d+(\.\d{1,2})?$/.test(String(value))) return formatDollars(String(value));
  if (key.includes('Date') && !Number.isNaN(Date.parse(String(value)))) return formatDate(String(value));
  if (typeof value === 'object') return JSON.stringify(value);
  // Statuses and methods are kept as lower-case words ('active', 'low battery'); the card shows them as words.
  if ((key === 'status' || key === 'method') && typeof value === 'string') return capitalize(value.replaceAll('_', ' '));
  return String(value);
}

/**
 * The card's details, built from the entry's metadata (spec, Recent Activity): empty values
 * skipped, 'amount' in dollars, keys holding 'Date' as dates, objects as text, keys in words.
 */
export function activityDetails(metadata: Record<string, unknown>): Array<{ label: string; value: string }> {
  return Object.entries(metadata)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => ({ label: keyLabel(key), value: detailValue(key, value) }));
}
