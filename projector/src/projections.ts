import type { Projection } from './projection.ts';
import { activitiesProjection } from './projections/activities.ts';
import { customersProjection } from './projections/customers.ts';
import { facilitiesProjection } from './projections/facilities.ts';
import { invoicesProjection } from './projections/invoices.ts';
import { leasesProjection } from './projections/leases.ts';
import { locksProjection } from './projections/locks.ts';
import { notificationsProjection } from './projections/notifications.ts';
import { staffProjection } from './projections/staff.ts';
import { unitsProjection } from './projections/units.ts';

/**
 * The read model, in the order each event is applied: the feed and notifications come last
 * because they describe an event with names the other tables already hold.
 */
export const readModelProjections: Projection[] = [
  staffProjection,
  facilitiesProjection,
  unitsProjection,
  customersProjection,
  leasesProjection,
  invoicesProjection,
  locksProjection,
  activitiesProjection,
  notificationsProjection,
];
