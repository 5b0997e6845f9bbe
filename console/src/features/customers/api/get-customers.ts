import type { Customer, customerSorting } from '@storage/contracts/customers';
import type { CustomerStatus } from '@storage/contracts/enums';
import type { ListTotal } from '@storage/contracts/page-info';
import type { Sort } from '@storage/contracts/sorting';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchListPage, type PageAt } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';
import { customersQueryKey } from '../../../lib/query-keys.ts';

export { customersQueryKey };

export const CUSTOMERS_PAGE_SIZE = 48;

export type CustomersFilter = {
  search: string;
  facilityId: string | null;
  status: CustomerStatus | null;
  /** on: renters enrolled in autopay; off: the others; null: all. */
  autopay?: 'on' | 'off' | null;
  /** The archived customers (to restore one) instead of the current ones. */
  archived?: boolean;
  sort: Sort<keyof typeof customerSorting.columns>;
};

export type CustomersPage = { customers: Customer[]; total: ListTotal };

export async function getCustomers(filter: CustomersFilter, page: PageAt): Promise<CustomersPage> {
  const { search, facilityId, status, autopay = null, archived = false, sort } = filter;
  const params = queryParams({ search, facilityId, status, autopay, archived: archived ? 'true' : null, ...sort, pageSize: CUSTOMERS_PAGE_SIZE });
  const { rows: customers, total } = await fetchListPage<Customer>('/api/customers', params, page);
  return { customers, total };
}

export const customersQueryOptions = (filter: CustomersFilter, page: PageAt) =>
  queryOptions({ queryKey: [...customersQueryKey, 'list', filter, page], queryFn: () => getCustomers(filter, page) });

/** The previous page stays on screen while the next one loads. */
export function useCustomers(filter: CustomersFilter, page: PageAt) {
  return useQuery({ ...customersQueryOptions(filter, page), placeholderData: keepPreviousData });
}
