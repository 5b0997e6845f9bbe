import type { CreditRefundRequest, DeskPaymentRequest, DeskReceipt } from '@storage/contracts/billing';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attemptKey, attemptSettled } from '../../../lib/attempt-keys.ts';
import { customersQueryKey } from './get-customers.ts';

/** `key`: one per attempted payment until it is answered (attemptKey), so a double submit or a retry pays once. */
export async function takeDeskPayment(customerId: string, request: DeskPaymentRequest, key: string): Promise<DeskReceipt> {
  const response = await apiRequest('POST', `/api/customers/${customerId}/payments`, request, { 'Idempotency-Key': key });
  return response.json();
}

export async function giveCredit(customerId: string, request: { amount: string; reason: string }, key: string): Promise<void> {
  await apiRequest('POST', `/api/customers/${customerId}/credits`, request, { 'Idempotency-Key': key });
}

/** A payment or a credit changes the renter's balance (and, through `onMoneyMoved`, their invoices). */
function useAfterMoney(onMoneyMoved: () => unknown) {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: customersQueryKey }), onMoneyMoved()]);
}

export function useTakeDeskPayment(customerId: string, onMoneyMoved: () => unknown) {
  const after = useAfterMoney(onMoneyMoved);
  const scope = `desk-payment:${customerId}`;
  return useMutation({
    mutationFn: (request: DeskPaymentRequest) => takeDeskPayment(customerId, request, attemptKey(scope, request)),
    onSuccess: () => {
      attemptSettled(scope);
      return after();
    },
    onError: (error) => attemptSettled(scope, error),
  });
}

export function useGiveCredit(customerId: string, onMoneyMoved: () => unknown) {
  const after = useAfterMoney(onMoneyMoved);
  const scope = `credit:${customerId}`;
  return useMutation({
    mutationFn: (request: { amount: string; reason: string }) => giveCredit(customerId, request, attemptKey(scope, request)),
    onSuccess: () => {
      attemptSettled(scope);
      return after();
    },
    onError: (error) => attemptSettled(scope, error),
  });
}

export async function refundCredit(customerId: string, request: CreditRefundRequest, key: string): Promise<void> {
  await apiRequest('POST', `/api/customers/${customerId}/credit-refunds`, request, { 'Idempotency-Key': key });
}

export function useRefundCredit(customerId: string, onMoneyMoved: () => unknown) {
  const after = useAfterMoney(onMoneyMoved);
  const scope = `credit-refund:${customerId}`;
  return useMutation({
    mutationFn: (request: CreditRefundRequest) => refundCredit(customerId, request, attemptKey(scope, request)),
    onSuccess: () => {
      attemptSettled(scope);
      return after();
    },
    onError: (error) => attemptSettled(scope, error),
  });
}
