import type { Customer, UpdateCustomerRequest } from '@storage/contracts/customers';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customersQueryKey } from './get-customers.ts';

export type CustomerUpdate = { customerId: string; changes: UpdateCustomerRequest };

export async function updateCustomer({ customerId, changes }: CustomerUpdate): Promise<Customer> {
  const response = await apiRequest('PATCH', `/api/customers/${encodeURIComponent(customerId)}`, changes);
  return response.json();
}

export function useUpdateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCustomer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customersQueryKey }),
  });
}
