import { type Customer, TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import { apiRequest } from '@storage/web-client/api';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

const PAGE_SIZE = 50;

export const customersQueryKey = ['customers'] as const;

export type CustomersFilter = { search: string; facilityId: string | null };

export type CustomersPage = { customers: Customer[]; total: number };

export async function getCustomers(filter: CustomersFilter, page: number): Promise<CustomersPage> {
  const params = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE) });
  if (filter.search) params.set('search', filter.search);
  if (filter.facilityId) params.set('facilityId', filter.facilityId);
  const response = await apiRequest('GET', `/api/customers?${params}`);
  const customers: Customer[] = await response.json();
  return { customers, total: Number(response.headers.get(TOTAL_COUNT_HEADER) ?? customers.length) };
}

export const customersQueryOptions = (filter: CustomersFilter) =>
  infiniteQueryOptions({
    queryKey: [...customersQueryKey, filter],
    queryFn: ({ pageParam }) => getCustomers(filter, pageParam),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages, lastPageParam) =>
      pages.reduce((loaded, page) => loaded + page.customers.length, 0) < lastPage.total ? lastPageParam + 1 : undefined,
  });

export function useCustomers(filter: CustomersFilter) {
  return useInfiniteQuery({ ...customersQueryOptions(filter), placeholderData: keepPreviousData });
}
