import type { BillingRun } from '@storage/contracts/billing';
import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryParams } from '../../../lib/list-state.ts';

export const BILLING_RUNS_PAGE_SIZE = 20;

export const billingRunsQueryKey = ['billing-runs'] as const;

export type BillingRunsPage = { runs: BillingRun[]; total: number };

export async function getBillingRuns(facilityId: string | null, page: number): Promise<BillingRunsPage> {
  const params = queryParams({ facilityId, page, pageSize: BILLING_RUNS_PAGE_SIZE });
  const response = await apiRequest('GET', `/api/billing-runs?${params}`);
  const runs: BillingRun[] = await response.json();
  return { runs, total: Number(response.headers.get(TOTAL_COUNT_HEADER) ?? runs.length) };
}

export const billingRunsQueryOptions = (facilityId: string | null, page: number) =>
  queryOptions({ queryKey: [...billingRunsQueryKey, facilityId, page], queryFn: () => getBillingRuns(facilityId, page) });

/** The previous page stays on screen while the next one loads. */
export function useBillingRuns(facilityId: string | null, page: number) {
  return useQuery({ ...billingRunsQueryOptions(facilityId, page), placeholderData: keepPreviousData });
}
