import type { DashboardMetrics } from '@storage/contracts/dashboard';
import { inertBidiControlsIn } from '@storage/contracts/text';
import { queryOptions, useQuery } from '@tanstack/react-query';

export const dashboardQueryKey = ['dashboard'] as const;

/** Spec §7: cache-busting `_t`, no-cache headers, and a non-ok answer is 'API Error: (status)'. */
export async function getDashboardMetrics(facilityId: string | null): Promise<DashboardMetrics> {
  const params = new URLSearchParams({ _t: String(Date.now()) });
  if (facilityId) params.set('facilityId', facilityId);
  const response = await fetch(`/api/dashboard/metrics?${params}`, {
    credentials: 'include',
    headers: { Accept: 'application/json', 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
  });
  if (!response.ok) throw new Error(`API Error: ${response.status}`);
  // Not through apiRequest (its own headers and error text), so bidi controls are made inert here.
  return inertBidiControlsIn(await response.json());
}

export const dashboardMetricsQueryOptions = (facilityId: string | null) =>
  queryOptions({
    queryKey: [...dashboardQueryKey, 'metrics', facilityId],
    queryFn: () => getDashboardMetrics(facilityId),
    // Always stale (spec §7): every visit asks again.
    staleTime: 0,
  });

export function useDashboardMetrics(facilityId: string | null) {
  return useQuery(dashboardMetricsQueryOptions(facilityId));
}
