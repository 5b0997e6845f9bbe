import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customersQueryKey } from './get-customers.ts';

export async function archiveCustomer(customerId: string): Promise<void> {
  await apiRequest('DELETE', `/api/customers/${encodeURIComponent(customerId)}`);
}

export function useArchiveCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveCustomer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customersQueryKey }),
  });
}
