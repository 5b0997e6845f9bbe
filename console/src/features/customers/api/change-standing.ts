import type { ChangeCustomerStandingRequest, Customer } from '@storage/contracts/customers';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customersQueryKey } from './get-customers.ts';

/** `key`: one per dialog opening, so a double submit records the decision once. */
export function useChangeCustomerStanding(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ request, key }: { request: ChangeCustomerStandingRequest; key: string }): Promise<Customer> =>
      (await apiRequest('POST', `/api/customers/${encodeURIComponent(customerId)}/standing`, request, { 'Idempotency-Key': key })).json(),
    // The page's badge, the list's status filter and the cards all show the standing.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customersQueryKey }),
  });
}
