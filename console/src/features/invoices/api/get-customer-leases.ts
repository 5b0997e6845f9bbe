import type { Lease } from '@storage/contracts/leases';
import { apiRequest } from '@storage/web-client/api';
import { useQuery } from '@tanstack/react-query';

/** A customer's leases, newest first: what an invoice for that customer may be linked to. */
const CUSTOMER_LEASES_PAGE_SIZE = 50;

export async function getCustomerLeases(customerId: string): Promise<Lease[]> {
  const response = await apiRequest('GET', `/api/leases?customerId=${encodeURIComponent(customerId)}&pageSize=${CUSTOMER_LEASES_PAGE_SIZE}`);
  return response.json();
}

export function useCustomerLeases(customerId: string | undefined) {
  return useQuery({
    queryKey: ['leases', 'of-customer', customerId],
    queryFn: () => getCustomerLeases(customerId!),
    enabled: customerId !== undefined,
  });
}
