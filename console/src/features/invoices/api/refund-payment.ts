import type { RefundAnswer, RefundRequest } from '@storage/contracts/billing';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { customersQueryKey, invoicesQueryKey } from '../../../lib/query-keys.ts';

/** `key`: one per dialog opening, so a double submit or a retry refunds once. */
export async function refundPayment(paymentId: string, request: RefundRequest, key: string): Promise<RefundAnswer> {
  const response = await apiRequest('POST', `/api/payments/${encodeURIComponent(paymentId)}/refund`, request, { 'Idempotency-Key': key });
  return response.json();
}

/** A refund changes the invoice (its balance, maybe its status) and the renter's balance and statement. */
export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ paymentId, request, key }: { paymentId: string; request: RefundRequest; key: string }) => refundPayment(paymentId, request, key),
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: invoicesQueryKey }), queryClient.invalidateQueries({ queryKey: customersQueryKey })]),
  });
}
