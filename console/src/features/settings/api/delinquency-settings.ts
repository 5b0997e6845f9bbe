import type { DelinquencySettingsAnswer, UpdateDelinquencySettingsRequest } from '@storage/contracts/delinquency';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryParams } from '../../../lib/list-state.ts';

export const delinquencySettingsQueryKey = ['settings', 'delinquency'] as const;

export async function getDelinquencySettings(facilityId: string | null): Promise<DelinquencySettingsAnswer> {
  const response = await apiRequest('GET', `/api/settings/delinquency?${queryParams({ facilityId })}`);
  return response.json();
}

export const delinquencySettingsQueryOptions = (facilityId: string | null) =>
  queryOptions({ queryKey: [...delinquencySettingsQueryKey, facilityId], queryFn: () => getDelinquencySettings(facilityId) });

/** The business's delinquency schedule and, with a facility, the facility's own and the one that applies to it. */
export function useDelinquencySettings(facilityId: string | null) {
  return useQuery(delinquencySettingsQueryOptions(facilityId));
}

export async function updateDelinquencySettings(request: UpdateDelinquencySettingsRequest): Promise<DelinquencySettingsAnswer> {
  const response = await apiRequest('PUT', '/api/settings/delinquency', request);
  return response.json();
}

/** A business's schedule applies to every facility that follows it: every scope is read again. */
export function useUpdateDelinquencySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDelinquencySettings,
    onSuccess: (answer, request) => {
      queryClient.setQueryData([...delinquencySettingsQueryKey, request.facilityId], answer);
      return queryClient.invalidateQueries({ queryKey: delinquencySettingsQueryKey });
    },
  });
}
