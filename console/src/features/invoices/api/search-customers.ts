import type { Customer } from '@storage/contracts/customers';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

const PICKER_PAGE_SIZE = 20;

export type CustomerSearch = { search: string; facilityId: string | null };

/** The invoice form's customer picker: the server searches, so it works at any number of customers. */
export async function searchCustomers({ search, facilityId }: CustomerSearch): Promise<Customer[]> {
  const params = new URLSearchParams({ pageSize: String(PICKER_PAGE_SIZE) });
  if (search) params.set('search', search);
  if (facilityId) params.set('facilityId', facilityId);
  const response = await apiRequest('GET', `/api/customers?${params}`);
  return response.json();
}

// Under the customers key, so a customer added on the Customers screen is found here at once.
export const customerSearchQueryOptions = (query: CustomerSearch) =>
  queryOptions({ queryKey: ['customers', 'invoice-picker', query], queryFn: () => searchCustomers(query) });

export function useCustomerSearch(query: CustomerSearch) {
  return useQuery({ ...customerSearchQueryOptions(query), placeholderData: keepPreviousData });
}
