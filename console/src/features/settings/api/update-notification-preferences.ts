import type { NotificationPreferences, Settings } from '@storage/contracts/settings';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { settingsQueryKey } from './get-settings.ts';

export async function updateNotificationPreferences(preferences: NotificationPreferences): Promise<Settings> {
  const response = await apiRequest('PUT', '/api/settings/notifications', preferences);
  return response.json();
}

export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationPreferences,
    onSuccess: (settings) => queryClient.setQueryData(settingsQueryKey, settings),
  });
}
