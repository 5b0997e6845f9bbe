import type { Customer } from '@storage/contracts/customers';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions } from '@tanstack/react-query';
import { customersQueryKey } from './get-customers.ts';

const PICKER_SIZE = 20;

export type CustomerSearch = { search: string; facilityId: string | null };

/** A picker's customers: the server searches name, email and phone, so it works at any number of customers. */
export async function searchCustomers({ search, facilityId }: CustomerSearch): Promise<Customer[]> {
  const params = new URLSearchParams({ pageSize: String(PICKER_SIZE) });
  if (search) params.set('search', search);
  if (facilityId) params.set('facilityId', facilityId);
  const response = await apiRequest('GET', `/api/customers?${params}`);
  return response.json();
}

// Under the customers key, so a customer added on the Customers screen is found here at once.
export const customerSearchQueryOptions = (query: CustomerSearch) =>
  queryOptions({ queryKey: [...customersQueryKey, 'picker', query], queryFn: () => searchCustomers(query) });
