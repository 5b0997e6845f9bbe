import type { ProtectionSettingsAnswer, UpdateProtectionSettingsRequest } from '@storage/contracts/protection';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryParams } from '../../../lib/list-state.ts';

export const protectionSettingsQueryKey = ['settings', 'protection'] as const;

export async function getProtectionSettings(facilityId: string | null): Promise<ProtectionSettingsAnswer> {
  const response = await apiRequest('GET', `/api/settings/protection?${queryParams({ facilityId })}`);
  return response.json();
}

export const protectionSettingsQueryOptions = (facilityId: string | null) =>
  queryOptions({ queryKey: [...protectionSettingsQueryKey, facilityId], queryFn: () => getProtectionSettings(facilityId) });

/** The business's protection plans and, with a facility, the facility's own and those that apply to it. */
export function useProtectionSettings(facilityId: string | null) {
  return useQuery(protectionSettingsQueryOptions(facilityId));
}

export async function updateProtectionSettings(request: UpdateProtectionSettingsRequest): Promise<ProtectionSettingsAnswer> {
  const response = await apiRequest('PUT', '/api/settings/protection', request);
  return response.json();
}

/** A business's plans are also those of every facility that follows them: every scope is read again. */
export function useUpdateProtectionSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProtectionSettings,
    onSuccess: (answer, request) => {
      queryClient.setQueryData([...protectionSettingsQueryKey, request.facilityId], answer);
      return queryClient.invalidateQueries({ queryKey: protectionSettingsQueryKey });
    },
  });
}
