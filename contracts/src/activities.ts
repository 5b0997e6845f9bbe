import { z } from 'zod';
import { ActivityType } from './enums.ts';
import { Id, IsoDateTime, SearchText } from './fields.ts';
import { pagingFields } from './paging.ts';
import { listSorting } from './sorting.ts';

export const ActivityTab = z.enum(['all', 'customers', 'leases', 'payments', 'access']);
export type ActivityTab = z.infer<typeof ActivityTab>;

/**
 * The types each Recent Activity tab gathers: the spec's own, and beside them the feed's
 * further types of the same subject (so every entry but 'other' has a tab besides All).
 */
export const activityTabTypes: Record<Exclude<ActivityTab, 'all'>, readonly ActivityType[]> = {
  customers: ['customer_added', 'reservation_submitted', 'customer_updated', 'customer_archived', 'customer_restored'],
  leases: ['lease_started', 'unit_maintenance', 'lease_ended', 'lease_move_out_scheduled', 'lease_move_out_cancelled'],
  payments: ['invoice_generated', 'payment_received', 'invoice_sent', 'invoice_overdue', 'invoice_cancelled', 'payment_refunded'],
  access: ['access_granted', 'lock_status_changed', 'lock_installed', 'lock_assigned', 'lock_battery_low', 'lock_maintenance'],
};

/** The tab besides All that gathers entries of this type, or null when only All does. */
export function activityTabOf(type: ActivityType): Exclude<ActivityTab, 'all'> | null {
  const tab = (Object.keys(activityTabTypes) as Array<Exclude<ActivityTab, 'all'>>).find((t) => activityTabTypes[t].includes(type));
  return tab ?? null;
}

/** What the feed is narrowed to; the list and its tab counts share it. */
export const ActivitiesFilter = z.strictObject({
  /** The description, or the customer's first name, last name or email. */
  search: SearchText,
  type: ActivityType.optional(),
  facilityId: Id.optional(),
  /** One customer's entries (the customer page shows them). */
  customerId: Id.optional(),
});
export type ActivitiesFilter = z.input<typeof ActivitiesFilter>;

/** The feed by when things happened: newest first, or oldest first. */
export const activitySorting = listSorting({ createdAt: 'desc' }, 'createdAt');

export const ListActivitiesQuery = ActivitiesFilter.extend({
  tab: ActivityTab.default('all'),
  ...activitySorting.fields,
  ...pagingFields,
});
export type ListActivitiesQuery = z.input<typeof ListActivitiesQuery>;

/** Spec §3 "Activity list item". */
export const Activity = z.object({
  id: Id,
  type: ActivityType,
  description: z.string(),
  createdAt: IsoDateTime,
  metadata: z.record(z.string(), z.unknown()),
  customer: z.object({ id: Id, firstName: z.string(), lastName: z.string(), email: z.string() }).nullable(),
  /** The staff member who did it (a lock assigned, a unit changed…); null: the renter, a reaction or the system. */
  staff: z.object({ id: Id, name: z.string(), email: z.string() }).nullable(),
});
export type Activity = z.infer<typeof Activity>;

/** How many entries of the filtered feed each tab holds: counted up to TOTAL_COUNT_CAP (contracts/src/paging.ts), past it at least that many. */
export const ActivityTabCounts = z.record(ActivityTab, z.object({ count: z.number().int(), kind: z.enum(['exact', 'atLeast']) }));
export type ActivityTabCounts = z.infer<typeof ActivityTabCounts>;
