import type { CustomerNote } from '@storage/contracts/customers';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { customersQueryKey } from './get-customers.ts';

const notesKey = (customerId: string) => [...customersQueryKey, 'notes', customerId] as const;

export function useCustomerNotes(customerId: string) {
  return useQuery({
    queryKey: notesKey(customerId),
    queryFn: async (): Promise<CustomerNote[]> => (await apiRequest('GET', `/api/customers/${customerId}/notes`)).json(),
  });
}

export function useAddCustomerNote(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (text: string): Promise<CustomerNote[]> => (await apiRequest('POST', `/api/customers/${customerId}/notes`, { text })).json(),
    onSuccess: (notes) => queryClient.setQueryData(notesKey(customerId), notes),
  });
}
