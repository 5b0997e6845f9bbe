import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationsQueryKey } from './get-notifications.ts';

export async function markNotificationRead(notificationId: string): Promise<void> {
  await apiRequest('PUT', `/api/notifications/${encodeURIComponent(notificationId)}/read`);
}

/** 'Mark all as read' marks each unread notification with its own call (spec §4). */
export async function markNotificationsRead(notificationIds: string[]): Promise<void> {
  const results = await Promise.allSettled(notificationIds.map(markNotificationRead));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
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
