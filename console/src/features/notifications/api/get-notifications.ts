import type { NotificationType } from '@storage/contracts/enums';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api.ts';

export type StaffNotification = {
  id: string;
  type: NotificationType;
  title: string;
  message: string;
  read: boolean;
  createdAt: string;
};

export const notificationsQueryKey = ['notifications'] as const;

export async function getNotifications(): Promise<StaffNotification[]> {
  const response = await apiRequest('GET', '/api/notifications');
  return response.json();
}

export const notificationsQueryOptions = () => queryOptions({ queryKey: notificationsQueryKey, queryFn: getNotifications });

export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}
