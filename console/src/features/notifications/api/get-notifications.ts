import { UNREAD_COUNT_HEADER } from '@storage/contracts/headers';
import type { Notification } from '@storage/contracts/notifications';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useQuery } from '@tanstack/react-query';

export const notificationsQueryKey = ['notifications'] as const;

/** The newest notifications, and how many are unread in all (the list is capped; the count is not). */
export type NotificationInbox = { notifications: Notification[]; unread: number };

export async function getNotifications(facilityId: string | null): Promise<NotificationInbox> {
  const response = await apiRequest('GET', facilityId ? `/api/notifications?facilityId=${encodeURIComponent(facilityId)}` : '/api/notifications');
  const notifications: Notification[] = await response.json();
  const unread = Number(response.headers.get(UNREAD_COUNT_HEADER) ?? notifications.filter((notification) => !notification.read).length);
  return { notifications, unread };
}

export const notificationsQueryOptions = (facilityId: string | null) =>
  queryOptions({ queryKey: [...notificationsQueryKey, facilityId], queryFn: () => getNotifications(facilityId) });

export function useNotifications(facilityId: string | null) {
  return useQuery(notificationsQueryOptions(facilityId));
}
