import type { InvoiceStatus } from '@storage/contracts/enums';
import type { InvoiceListItem, invoiceSorting } from '@storage/contracts/invoices';
import type { ListTotal } from '@storage/contracts/page-info';
import type { Sort } from '@storage/contracts/sorting';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchListPage, type PageAt } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';
import { invoicesQueryKey } from '../../../lib/query-keys.ts';

export { invoicesQueryKey };

export const INVOICES_PAGE_SIZE = 20;

export type InvoicesFilter = {
  search: string;
  facilityId: string | null;
  status: InvoiceStatus | null;
  sort: Sort<keyof typeof invoiceSorting.columns>;
  /** One customer's invoices (the customer page). */
  customerId?: string;
};

export type InvoicesPage = { invoices: InvoiceListItem[]; total: ListTotal };

export async function getInvoices(filter: InvoicesFilter, page: PageAt): Promise<InvoicesPage> {
  const { search, facilityId, status, sort, customerId } = filter;
  const params = queryParams({ search, facilityId, customerId, status, ...sort, pageSize: INVOICES_PAGE_SIZE });
  const { rows: invoices, total } = await fetchListPage<InvoiceListItem>('/api/invoices', params, page);
  return { invoices, total };
}

export const invoicesQueryOptions = (filter: InvoicesFilter, page: PageAt) =>
  queryOptions({
    queryKey: [...invoicesQueryKey, 'list', filter, page],
    queryFn: () => getInvoices(filter, page),
  });

/** The previous page stays on screen while the next one loads. */
export function useInvoices(filter: InvoicesFilter, page: PageAt) {
  return useQuery({ ...invoicesQueryOptions(filter, page), placeholderData: keepPreviousData });
}
