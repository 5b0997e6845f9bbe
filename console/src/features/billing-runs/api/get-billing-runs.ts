import type { BillingRun } from '@storage/contracts/billing';
import type { ListTotal } from '@storage/contracts/page-info';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchListPage } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';

export const BILLING_RUNS_PAGE_SIZE = 20;

export const billingRunsQueryKey = ['billing-runs'] as const;

export type BillingRunsPage = { runs: BillingRun[]; total: ListTotal };

export async function getBillingRuns(facilityId: string | null, page: number): Promise<BillingRunsPage> {
  const params = queryParams({ facilityId, pageSize: BILLING_RUNS_PAGE_SIZE });
  const { rows: runs, total } = await fetchListPage<BillingRun>('/api/billing-runs', params, page);
  return { runs, total };
}

export const billingRunsQueryOptions = (facilityId: string | null, page: number) =>
  queryOptions({ queryKey: [...billingRunsQueryKey, facilityId, page], queryFn: () => getBillingRuns(facilityId, page) });

/** The previous page stays on screen while the next one loads. */
export function useBillingRuns(facilityId: string | null, page: number) {
  return useQuery({ ...billingRunsQueryOptions(facilityId, page), placeholderData: keepPreviousData });
}
