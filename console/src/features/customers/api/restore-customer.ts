import type { Customer } from '@storage/contracts/customers';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customersQueryKey } from './get-customers.ts';

export async function restoreCustomer(customerId: string): Promise<Customer> {
  const response = await apiRequest('POST', `/api/customers/${encodeURIComponent(customerId)}/restore`);
  return response.json();
}

export function useRestoreCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreCustomer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customersQueryKey }),
  });
}
