import type { BusinessProfileRequest, Settings } from '@storage/contracts/settings';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { settingsQueryKey } from './get-settings.ts';

export async function updateBusinessProfile(profile: BusinessProfileRequest): Promise<Settings> {
  const response = await apiRequest('PUT', '/api/settings/business-profile', profile);
  return response.json();
}

export function useUpdateBusinessProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBusinessProfile,
    onSuccess: (settings) => queryClient.setQueryData(settingsQueryKey, settings),
  });
}
