import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationsQueryKey } from './get-notifications.ts';

export async function markNotificationRead(notificationId: string): Promise<void> {
  await apiRequest('PUT', `/api/notifications/${encodeURIComponent(notificationId)}/read`);
}

/**
 * 'Mark all as read' marks every notification of the facility scope (all facilities when none is
 * selected) with one call, also those past the end of the bell's list.
 */
export async function markNotificationsRead(facilityId: string | null): Promise<void> {
  await apiRequest('POST', '/api/notifications/read-all', facilityId ? { facilityId } : {});
}

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}
