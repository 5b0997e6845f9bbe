import type {
  AddMerchandiseRequest,
  AdjustMerchandiseStockRequest,
  ChangeMerchandiseRequest,
  MerchandiseItem,
  MerchandiseQuote,
  MerchandiseSale,
  MerchandiseSaleRequest,
  RestockMerchandiseRequest,
} from '@storage/contracts/merchandise';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { attemptKey, attemptSettled } from '../../../lib/attempt-keys.ts';
import { customersQueryKey } from '../../../lib/query-keys.ts';

export const merchandiseQueryKey = ['merchandise'] as const;

export async function getMerchandise(facilityId: string): Promise<MerchandiseItem[]> {
  return (await apiRequest('GET', `/api/facilities/${facilityId}/merchandise`)).json();
}

/** A facility's catalogue (null: no facility chosen yet). */
export function useMerchandise(facilityId: string | null) {
  return useQuery({ queryKey: [...merchandiseQueryKey, facilityId], queryFn: () => getMerchandise(facilityId!), enabled: facilityId !== null });
}

/** A change to the catalogue: the lists are asked again (the stock the desk sells from with them). */
function useCatalogueChange<Request>(send: (request: Request) => Promise<Response>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: Request): Promise<MerchandiseItem> => (await send(request)).json(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: merchandiseQueryKey }),
  });
}

export function useAddMerchandise(facilityId: string) {
  return useCatalogueChange((request: AddMerchandiseRequest) => apiRequest('POST', `/api/facilities/${facilityId}/merchandise`, request));
}

export function useChangeMerchandise(itemId: string) {
  return useCatalogueChange((request: ChangeMerchandiseRequest) => apiRequest('PUT', `/api/merchandise/${itemId}`, request));
}

export function useRestockMerchandise(itemId: string) {
  return useCatalogueChange((request: RestockMerchandiseRequest) => apiRequest('POST', `/api/merchandise/${itemId}/restock`, request));
}

export function useCountMerchandiseStock(itemId: string) {
  return useCatalogueChange((request: AdjustMerchandiseStockRequest) => apiRequest('POST', `/api/merchandise/${itemId}/stock-count`, request));
}

/** `key`: the sale's Idempotency-Key, so a sale sent again under it sells once and answers the same invoice. */
export async function sellMerchandise(customerId: string, request: MerchandiseSaleRequest, key: string): Promise<MerchandiseSale> {
  return (await apiRequest('POST', `/api/customers/${customerId}/merchandise-sales`, request, { 'Idempotency-Key': key })).json();
}

/**
 * A desk sale under its attempt's key (attemptKey): sent again after an unanswered attempt (same
 * renter, same items) it sells once and answers the same invoice.
 */
export function useSellMerchandise(customerId: string, onSold: () => unknown) {
  const queryClient = useQueryClient();
  const scope = `merchandise-sale:${customerId}`;
  return useMutation({
    mutationFn: (request: MerchandiseSaleRequest) => sellMerchandise(customerId, request, attemptKey(scope, request)),
    onSuccess: () => {
      attemptSettled(scope);
      // The stock moved, and the renter owes the invoice (their balance on the customer page).
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: merchandiseQueryKey }),
        queryClient.invalidateQueries({ queryKey: customersQueryKey }),
        onSold(),
      ]);
    },
    onError: (error) => attemptSettled(scope, error),
  });
}

export async function getMerchandiseQuote(facilityId: string, lines: ReadonlyArray<{ itemId: string; quantity: number }>): Promise<MerchandiseQuote> {
  const query = new URLSearchParams({ lines: lines.map((line) => `${line.itemId}:${line.quantity}`).join(',') });
  return (await apiRequest('GET', `/api/facilities/${facilityId}/merchandise-quote?${query}`)).json();
}

/** What the sale would bill (lines, tax, total) as the server works it out; null lines: nothing to quote yet. */
export function useMerchandiseQuote(facilityId: string | null, lines: ReadonlyArray<{ itemId: string; quantity: number }> | null) {
  return useQuery({
    queryKey: ['merchandise-quote', facilityId, lines],
    queryFn: () => getMerchandiseQuote(facilityId!, lines!),
    enabled: facilityId !== null && lines !== null && lines.length > 0,
    gcTime: 0,
    placeholderData: keepPreviousData,
  });
}
