import { z } from 'zod';
import { Customer } from './customers.ts';
import { Id, IsoDate, IsoDateTime, SearchText } from './fields.ts';

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** A day up to today (UTC); a date and time stands for its UTC day. */
const PastDay = z
  .union([IsoDate, IsoDateTime], { error: 'must be a date (YYYY-MM-DD) or an ISO-8601 date and time' })
  .transform((value) => (value.length === 10 ? value : utcDay(new Date(value))))
  .refine((day) => day <= utcDay(new Date()), 'must not be in the future')
  // PostgreSQL has no year 0 (0000-01-01 was a 500): nothing the dashboard shows is that old.
  .refine((day) => day >= '1900-01-01', 'must be on or after 1900-01-01');

export const DashboardMetricsQuery = z.strictObject({
  facilityId: Id.optional(),
  /** The figures as they stood at the end of this day, e.g. a past month-end; now when absent. */
  asOf: PastDay.optional(),
  /** The console's cache buster (spec §7); its value means nothing. */
  _t: z.string().max(40, 'must be at most 40 characters').optional(),
});
export type DashboardMetricsQuery = z.input<typeof DashboardMetricsQuery>;

export const BuildingOccupancy = z.object({
  building: z.string(),
  /** The building's facility; null for units that belong to none. */
  facilityId: Id.nullable(),
  facilityName: z.string().nullable(),
  occupied: z.number().int(),
  total: z.number().int(),
});
export type BuildingOccupancy = z.infer<typeof BuildingOccupancy>;

/** How each figure moved since last month (the month before `asOf`'s); null where there is no earlier month to compare with. */
export const MonthOverMonth = z.object({
  /** Revenue this month up to the day against the same days of last month, in percent. */
  revenuePercent: z.number().nullable(),
  /** Occupancy rate at the day against the end of last month, in percentage points. */
  occupancyPoints: z.number().nullable(),
  /** Customers added this month up to the day. */
  newCustomers: z.number().int(),
  /** Outstanding balance at the day against the end of last month, in percent. */
  outstandingPercent: z.number().nullable(),
});
export type MonthOverMonth = z.infer<typeof MonthOverMonth>;

/**
 * Spec §3 "Dashboard metrics", plus the month-over-month changes the cards caption. "The day" is
 * today, or `asOf` when asked for: the figures as they stood at its end (UTC).
 */
export const DashboardMetrics = z.object({
  /**
   * Money received in the day's calendar month up to the day, less refunds, from the ledger (the
   * facilities' own dates), as a decimal string.
   */
  totalRevenue: z.string(),
  /** Occupied units / all units, in percent with one decimal; 0 when there are no units. */
  occupancyRate: z.number(),
  activeCustomers: z.number().int(),
  /** What renters owe at the end of the day by the ledger: each renter's balance when positive, summed. */
  outstandingBalance: z.string(),
  /** The past-due part of it: each renter's balance less what invoices not yet due charged them, never below 0. */
  overdueBalance: z.string(),
  /** Units and occupied units per building at the end of the day; a building with no units by then is left out. */
  buildingOccupancy: z.array(BuildingOccupancy),
  monthOverMonth: MonthOverMonth,
});
export type DashboardMetrics = z.infer<typeof DashboardMetrics>;

export const RecentCustomersQuery = z.strictObject({
  facilityId: Id.optional(),
  /** Matches first name, last name and email combined (spec: dashboard customer search). */
  search: SearchText,
});
export type RecentCustomersQuery = z.input<typeof RecentCustomersQuery>;

/** A customer of the dashboard table, with what their active leases rent. */
export const RecentCustomer = Customer.extend({
  /** Unit numbers of the customer's active leases, oldest lease first; empty when none. */
  unitNumbers: z.array(z.string()),
  /** The monthly rent of those leases together; null when none. */
  monthlyRate: z.string().nullable(),
});
export type RecentCustomer = z.infer<typeof RecentCustomer>;

/** Spec §9: the dashboard customer table shows at most 5 rows. */
export const RECENT_CUSTOMERS_LIMIT = 5;
