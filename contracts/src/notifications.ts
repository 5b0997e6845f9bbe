import { z } from 'zod';
import { NotificationType } from './enums.ts';
import { Id, IsoDateTime } from './fields.ts';

export const ListNotificationsQuery = z.strictObject({ facilityId: Id.optional() });
export type ListNotificationsQuery = z.input<typeof ListNotificationsQuery>;

/** "Mark all as read": every notification of the facility (or of all facilities when absent) raised until now. */
export const MarkAllNotificationsReadRequest = z.strictObject({ facilityId: Id.optional() });
export type MarkAllNotificationsReadRequest = z.input<typeof MarkAllNotificationsReadRequest>;

/** Spec §3 "Notification". */
export const Notification = z.object({
  id: Id,
  type: NotificationType,
  title: z.string(),
  message: z.string(),
  read: z.boolean(),
  createdAt: IsoDateTime,
});
export type Notification = z.infer<typeof Notification>;

export { UNREAD_COUNT_HEADER } from './headers.ts';
export const NOTIFICATION_LIST_LIMIT = 50;
