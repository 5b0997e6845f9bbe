import type { InvoiceDetail, InvoiceListItem } from '@storage/contracts/invoices';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type InvoicesPage, invoicesQueryKey } from './get-invoices.ts';

export async function sendInvoice(invoiceId: string): Promise<InvoiceListItem> {
  const response = await apiRequest('POST', `/api/invoices/${encodeURIComponent(invoiceId)}/send`);
  return response.json();
}

/** The list and any open detail are refetched, then show the status the server answered. */
export function useSendInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendInvoice,
    onSuccess: async (sent) => {
      await queryClient.invalidateQueries({ queryKey: invoicesQueryKey });
      // The answer comes from the write side: a read model a moment behind may not show it yet.
      queryClient.setQueriesData<InvoicesPage>(
        { queryKey: [...invoicesQueryKey, 'list'] },
        (page) => page && { ...page, invoices: page.invoices.map((invoice) => (invoice.id === sent.id ? { ...invoice, status: sent.status } : invoice)) },
      );
      queryClient.setQueriesData<InvoiceDetail>(
        { queryKey: [...invoicesQueryKey, 'detail', sent.id] },
        (detail) => detail && { ...detail, status: sent.status },
      );
    },
    onError: () => queryClient.invalidateQueries({ queryKey: invoicesQueryKey }),
  });
}
