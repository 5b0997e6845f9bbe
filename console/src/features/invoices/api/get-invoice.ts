import type { InvoiceDetail } from '@storage/contracts/invoices';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { invoicesQueryKey } from './get-invoices.ts';

export async function getInvoice(invoiceId: string): Promise<InvoiceDetail> {
  const response = await apiRequest('GET', `/api/invoices/${encodeURIComponent(invoiceId)}`);
  return response.json();
}

export const invoiceQueryOptions = (invoiceId: string) =>
  queryOptions({ queryKey: [...invoicesQueryKey, 'detail', invoiceId], queryFn: () => getInvoice(invoiceId) });

export function useInvoice(invoiceId: string | null) {
  return useQuery({ ...invoiceQueryOptions(invoiceId ?? ''), enabled: invoiceId !== null });
}
