import type { PaymentProfile } from '@storage/contracts/autopay';
import { apiRequest } from '@storage/web-client/api';
import { useQuery } from '@tanstack/react-query';
import { customersQueryKey } from './get-customers.ts';

export async function getPaymentProfile(customerId: string): Promise<PaymentProfile> {
  return (await apiRequest('GET', `/api/customers/${encodeURIComponent(customerId)}/payment-profile`)).json();
}

/** The renter's saved cards and autopay, under the customers' key (refreshed with the customer's page). */
export function usePaymentProfile(customerId: string) {
  return useQuery({ queryKey: [...customersQueryKey, 'payment-profile', customerId], queryFn: () => getPaymentProfile(customerId) });
}
