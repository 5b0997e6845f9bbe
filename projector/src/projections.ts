import type { Projection } from './projection.ts';
import { accessProjection } from './projections/access.ts';
import { activitiesProjection } from './projections/activities.ts';
import { auditLogProjection } from './projections/audit-log.ts';
import { autopayProjection } from './projections/autopay.ts';
import { billingRunsProjection } from './projections/billing-runs.ts';
import { customersProjection } from './projections/customers.ts';
import { delinquencyProjection } from './projections/delinquency.ts';
import { facilitiesProjection } from './projections/facilities.ts';
import { gatewayKeysProjection } from './projections/gateway-keys.ts';
import { invoicesProjection } from './projections/invoices.ts';
import { leasesProjection } from './projections/leases.ts';
import { ledgerProjection } from './projections/ledger.ts';
import { locksProjection } from './projections/locks.ts';
import { merchandiseProjection } from './projections/merchandise.ts';
import { metricsProjection } from './projections/metrics.ts';
import { notificationsProjection } from './projections/notifications.ts';
import { reportTotalsProjection } from './projections/report-totals.ts';
import { reservationsProjection } from './projections/reservations.ts';
import { settingsProjection } from './projections/settings.ts';
import { staffProjection } from './projections/staff.ts';
import { unitsProjection } from './projections/units.ts';

/**
 * The read model, in the order each event is applied: the feed and notifications come last
 * because they describe an event with names the other tables already hold.
 */
export const readModelProjections: Projection[] = [
  staffProjection,
  // Before notifications: the alert toggles are read as of each event, in the same transaction.
  settingsProjection,
  facilitiesProjection,
  unitsProjection,
  customersProjection,
  leasesProjection,
  invoicesProjection,
  // After invoices: a charge reads the invoice as it is after the event.
  ledgerProjection,
  // After ledger: its totals follow the entry the ledger made of the event.
  reportTotalsProjection,
  // After invoices: an autopay attempt reads its invoice's facility.
  autopayProjection,
  merchandiseProjection,
  locksProjection,
  gatewayKeysProjection,
  // After leases, units and locks: gate codes and gateway changes read them as of the event.
  accessProjection,
  reservationsProjection,
  billingRunsProjection,
  // After customers: a renter's row keeps their facility.
  delinquencyProjection,
  metricsProjection,
  activitiesProjection,
  notificationsProjection,
  // Last: the entity's facility as the event left it.
  auditLogProjection,
];
