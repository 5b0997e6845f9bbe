import type { CreditRefundRequest, DeskPaymentPlan, DeskPaymentRequest, DeskReceipt } from '@storage/contracts/billing';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { attemptKey, attemptSettled } from '../../../lib/attempt-keys.ts';
import { customersQueryKey } from './get-customers.ts';

/** `key`: one per attempted payment until it is answered (attemptKey), so a double submit or a retry pays once. */
export async function takeDeskPayment(customerId: string, request: DeskPaymentRequest, key: string): Promise<DeskReceipt> {
  const response = await apiRequest('POST', `/api/customers/${customerId}/payments`, request, { 'Idempotency-Key': key });
  return response.json();
}

/** What a desk payment of `amount` would pay were it taken now (the server works it out as it takes one); nothing is recorded. */
export async function getDeskPaymentPlan(customerId: string, amount: string): Promise<DeskPaymentPlan> {
  return (await apiRequest('GET', `/api/customers/${customerId}/payment-plan?${new URLSearchParams({ amount })}`)).json();
}

/**
 * The plan for `amount` (null: no amount to plan yet). Never kept once the dialog closes: another
 * desk may take money meanwhile, so each opening asks afresh; a payment taken here closes the
 * dialog, so refetching it on the way out would only flash the plan of a paid balance.
 */
export function useDeskPaymentPlan(customerId: string, amount: string | null) {
  return useQuery({
    queryKey: ['desk-payment-plan', customerId, amount],
    queryFn: () => getDeskPaymentPlan(customerId, amount!),
    enabled: amount !== null,
    gcTime: 0,
    placeholderData: keepPreviousData,
  });
}

export async function giveCredit(customerId: string, request: { amount: string; reason: string }, key: string): Promise<void> {
  await apiRequest('POST', `/api/customers/${customerId}/credits`, request, { 'Idempotency-Key': key });
}

/** A payment or a credit changes the renter's balance (and, through `onMoneyMoved`, their invoices). */
function useAfterMoney(onMoneyMoved: () => unknown) {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: customersQueryKey }), onMoneyMoved()]);
}

/**
 * A desk payment under its attempt's key: Take Payment and the Move In dialog share the scope, so a
 * payment sent again from either after an unanswered attempt (same renter, same request) pays once.
 */
export async function takeDeskPaymentOnce(customerId: string, request: DeskPaymentRequest): Promise<DeskReceipt> {
  const scope = `desk-payment:${customerId}`;
  try {
    const receipt = await takeDeskPayment(customerId, request, attemptKey(scope, request));
    attemptSettled(scope);
    return receipt;
  } catch (error) {
    attemptSettled(scope, error);
    throw error;
  }
}

export function useTakeDeskPayment(customerId: string, onMoneyMoved: () => unknown) {
  const after = useAfterMoney(onMoneyMoved);
  return useMutation({
    mutationFn: (request: DeskPaymentRequest) => takeDeskPaymentOnce(customerId, request),
    onSuccess: () => after(),
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
