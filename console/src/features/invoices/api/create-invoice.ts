import type { CreateInvoiceRequest, InvoiceListItem } from '@storage/contracts/invoices';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invoicesQueryKey } from './get-invoices.ts';

export async function createInvoice(request: CreateInvoiceRequest): Promise<InvoiceListItem> {
  const response = await apiRequest('POST', '/api/invoices', request);
  return response.json();
}

export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invoicesQueryKey }),
  });
}
