import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import type { InvoiceListItem } from '@storage/contracts/invoices';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

export const INVOICES_PAGE_SIZE = 20;

export const invoicesQueryKey = ['invoices'] as const;

export type InvoicesFilter = { search: string; facilityId: string | null };

export type InvoicesPage = { invoices: InvoiceListItem[]; total: number };

export async function getInvoices(filter: InvoicesFilter, page: number): Promise<InvoicesPage> {
  const params = new URLSearchParams({ page: String(page), pageSize: String(INVOICES_PAGE_SIZE) });
  if (filter.search) params.set('search', filter.search);
  if (filter.facilityId) params.set('facilityId', filter.facilityId);
  const response = await apiRequest('GET', `/api/invoices?${params}`);
  const invoices: InvoiceListItem[] = await response.json();
  return { invoices, total: Number(response.headers.get(TOTAL_COUNT_HEADER) ?? invoices.length) };
}

export const invoicesQueryOptions = (filter: InvoicesFilter, page: number) =>
  queryOptions({
    queryKey: [...invoicesQueryKey, 'list', filter, page],
    queryFn: () => getInvoices(filter, page),
  });

/** The previous page stays on screen while the next one loads. */
export function useInvoices(filter: InvoicesFilter, page: number) {
  return useQuery({ ...invoicesQueryOptions(filter, page), placeholderData: keepPreviousData });
}
