import type { AgingReport, PaymentsByMethod, RentRoll, RevenueByChargeType } from '@storage/contracts/reports';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

// The reports that follow the ledger: the rent roll, aging per renter, payments by method per day
// and revenue by charge type, for the facility scope (null: all facilities).

type Params = Record<string, string | null | undefined>;

/** `?facilityId=…&from=…`, leaving out what is not chosen. */
export function reportQuery(params: Params): string {
  const chosen = Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1]));
  return chosen.length === 0 ? '' : `?${new URLSearchParams(chosen)}`;
}

async function getReport<T>(path: string, params: Params): Promise<T> {
  return (await apiRequest('GET', `/api/reports/${path}${reportQuery(params)}`)).json();
}

export function useRentRoll(facilityId: string | null) {
  return useQuery({ queryKey: ['reports', 'rent-roll', facilityId], queryFn: () => getReport<RentRoll>('rent-roll', { facilityId }), staleTime: 0 });
}

export function useAging(facilityId: string | null) {
  return useQuery({ queryKey: ['reports', 'aging', facilityId], queryFn: () => getReport<AgingReport>('aging', { facilityId }), staleTime: 0 });
}

export function usePaymentsByMethod(facilityId: string | null, from: string | null, to: string | null) {
  return useQuery({
    queryKey: ['reports', 'payments-by-method', facilityId, from, to],
    queryFn: () => getReport<PaymentsByMethod>('payments-by-method', { facilityId, from, to }),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export function useRevenueByChargeType(facilityId: string | null) {
  return useQuery({
    queryKey: ['reports', 'revenue-by-charge-type', facilityId],
    queryFn: () => getReport<RevenueByChargeType>('revenue-by-charge-type', { facilityId }),
    staleTime: 0,
  });
}
