import type { PaymentSettingsRequest, Settings } from '@storage/contracts/settings';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { billingSettingsQueryKey } from './billing-settings.ts';
import { settingsQueryKey } from './get-settings.ts';

export async function updatePaymentSettings(payments: PaymentSettingsRequest): Promise<Settings> {
  const response = await apiRequest('PUT', '/api/settings/payments', payments);
  return response.json();
}

export function useUpdatePaymentSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePaymentSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsQueryKey, settings);
      // The late fee is also the billing settings' fixed fee.
      return queryClient.invalidateQueries({ queryKey: billingSettingsQueryKey });
    },
  });
}
