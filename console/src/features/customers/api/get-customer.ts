import type { Customer, CustomerAccount } from '@storage/contracts/customers';
import { apiRequest } from '@storage/web-client/api';
import { useQuery } from '@tanstack/react-query';
import { customersQueryKey } from './get-customers.ts';

export async function getCustomer(customerId: string): Promise<Customer> {
  return (await apiRequest('GET', `/api/customers/${customerId}`)).json();
}

export async function getCustomerAccount(customerId: string): Promise<CustomerAccount> {
  return (await apiRequest('GET', `/api/customers/${customerId}/account`)).json();
}

/** Under the customers' key, so an edit or an archive (which refresh the customers) refreshes the page too. */
export function useCustomer(customerId: string) {
  return useQuery({ queryKey: [...customersQueryKey, 'one', customerId], queryFn: () => getCustomer(customerId), retry: false });
}

export function useCustomerAccount(customerId: string) {
  return useQuery({ queryKey: [...customersQueryKey, 'account', customerId], queryFn: () => getCustomerAccount(customerId) });
}
