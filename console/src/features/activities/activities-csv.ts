import type { Activity } from '@storage/contracts/activities';
import { toCsv } from '@storage/contracts/csv';
import { formatDate, formatTime12h } from '../../lib/format.ts';
import { activityDetails, activityEmail, activityTypeLabel, customerName } from './activity-text.ts';

/** The entries as the cards show them, one row each. */
export function activitiesCsv(activities: readonly Activity[]): string {
  return toCsv(
    ['Date', 'Time', 'Type', 'Customer', 'Email', 'Description', 'Details'],
    activities.map((activity) => [
      formatDate(activity.createdAt),
      formatTime12h(activity.createdAt),
      activityTypeLabel(activity.type),
      customerName(activity),
      activityEmail(activity),
      activity.description,
      activityDetails(activity.metadata)
        .map((detail) => `${detail.label}: ${detail.value}`)
        .join('; '),
    ]),
  );
}
