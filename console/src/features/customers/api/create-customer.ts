import type { CreateCustomerRequest, Customer } from '@storage/contracts/customers';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customersQueryKey } from './get-customers.ts';

export async function createCustomer(request: CreateCustomerRequest): Promise<Customer> {
  const response = await apiRequest('POST', '/api/customers', request);
  return response.json();
}

export function useCreateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCustomer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customersQueryKey }),
  });
}
