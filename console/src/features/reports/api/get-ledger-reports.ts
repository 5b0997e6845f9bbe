import type { ListTotal } from '@storage/contracts/page-info';
import type { AgingReport, PaymentsByMethod, RentRoll, RentRollRow, RevenueByChargeType, SalesTaxReport } from '@storage/contracts/reports';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchListPage } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';

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

/** Leases a page of the rent roll shows; the CSV holds them all. */
export const RENT_ROLL_PAGE_SIZE = 25;

/** A page of the rent roll, with the figures of the whole scope. */
export async function getRentRoll(facilityId: string | null, asOf: string | null, page: number): Promise<{ roll: RentRoll; total: ListTotal }> {
  const params = queryParams({ facilityId, asOf, pageSize: RENT_ROLL_PAGE_SIZE });
  const { body, total } = await fetchListPage<RentRollRow, RentRoll>('/api/reports/rent-roll', params, page, (roll) => roll.rows);
  return { roll: body, total };
}

/** The previous page stays on screen while the next one loads. */
export function useRentRoll(facilityId: string | null, asOf: string | null, page: number) {
  return useQuery({
    queryKey: ['reports', 'rent-roll', facilityId, asOf, page],
    queryFn: () => getRentRoll(facilityId, asOf, page),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** Aging today, or as it stood at the end of an earlier `asOf`; the previous answer stays on screen while another day loads. */
export function useAging(facilityId: string | null, asOf: string | null) {
  return useQuery({
    queryKey: ['reports', 'aging', facilityId, asOf],
    queryFn: () => getReport<AgingReport>('aging', { facilityId, asOf }),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** Sales tax of the invoices issued from `from` to `to` (null: the server's today). */
export function useSalesTax(facilityId: string | null, from: string | null, to: string | null) {
  return useQuery({
    queryKey: ['reports', 'sales-tax', facilityId, from, to],
    queryFn: () => getReport<SalesTaxReport>('sales-tax', { facilityId, from, to }),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
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
