import type { BillingSettingsAnswer, UpdateBillingSettingsRequest } from '@storage/contracts/billing';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryParams } from '../../../lib/list-state.ts';
import { settingsQueryKey } from './get-settings.ts';

export const billingSettingsQueryKey = ['settings', 'billing'] as const;

export async function getBillingSettings(facilityId: string | null): Promise<BillingSettingsAnswer> {
  const response = await apiRequest('GET', `/api/settings/billing?${queryParams({ facilityId })}`);
  return response.json();
}

export const billingSettingsQueryOptions = (facilityId: string | null) =>
  queryOptions({ queryKey: [...billingSettingsQueryKey, facilityId], queryFn: () => getBillingSettings(facilityId) });

/** The business's billing settings and, with a facility, the facility's own and those that apply to it. */
export function useBillingSettings(facilityId: string | null) {
  return useQuery(billingSettingsQueryOptions(facilityId));
}

export async function updateBillingSettings(request: UpdateBillingSettingsRequest): Promise<BillingSettingsAnswer> {
  const response = await apiRequest('PUT', '/api/settings/billing', request);
  return response.json();
}

/** A saved business fixed fee is also the Payments card's late fee: the settings are read again. */
export function useUpdateBillingSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBillingSettings,
    onSuccess: (answer, request) => {
      queryClient.setQueryData([...billingSettingsQueryKey, request.facilityId], answer);
      return queryClient.invalidateQueries({ queryKey: settingsQueryKey });
    },
  });
}
