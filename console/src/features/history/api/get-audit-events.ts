import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import type { AuditEvent, auditSorting } from '@storage/contracts/history';
import type { Sort } from '@storage/contracts/sorting';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryParams } from '../../../lib/list-state.ts';

export type AuditLogFilter = { type: string | null; actor: string; facilityId: string | null; stream: string; from: string; to: string };
export type AuditLogSort = Sort<keyof typeof auditSorting.columns>;

/** The filter as query parameters, the same for the list and its CSV export. */
export function auditFilterParams({ type, actor, facilityId, stream, from, to }: AuditLogFilter): URLSearchParams {
  return queryParams({ type, actor, facilityId, stream, from, to });
}

export async function getAuditEvents(
  filter: AuditLogFilter,
  sort: AuditLogSort,
  page: number,
  pageSize: number,
): Promise<{ events: AuditEvent[]; total: number }> {
  const params = auditFilterParams(filter);
  for (const [key, value] of Object.entries({ ...sort, page, pageSize })) params.set(key, String(value));
  const response = await apiRequest('GET', `/api/audit/events?${params}`);
  const events: AuditEvent[] = await response.json();
  return { events, total: Number(response.headers.get(TOTAL_COUNT_HEADER) ?? events.length) };
}

export function useAuditEvents(filter: AuditLogFilter, sort: AuditLogSort, page: number, pageSize: number) {
  return useQuery({
    queryKey: ['audit-events', filter, sort, page, pageSize],
    queryFn: () => getAuditEvents(filter, sort, page, pageSize),
    placeholderData: keepPreviousData,
  });
}
