import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import type { AuditEvent } from '@storage/contracts/history';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

export type AuditLogFilter = { type: string | null; actor: string; facilityId: string | null; stream: string; from: string; to: string };

export function auditFilterParams(filter: AuditLogFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.type) params.set('type', filter.type);
  if (filter.actor) params.set('actor', filter.actor);
  if (filter.facilityId) params.set('facilityId', filter.facilityId);
  if (filter.stream) params.set('stream', filter.stream);
  if (filter.from) params.set('from', filter.from);
  if (filter.to) params.set('to', filter.to);
  return params;
}

export async function getAuditEvents(filter: AuditLogFilter, page: number, pageSize: number): Promise<{ events: AuditEvent[]; total: number }> {
  const params = auditFilterParams(filter);
  params.set('page', String(page));
  params.set('pageSize', String(pageSize));
  const response = await apiRequest('GET', `/api/audit/events?${params}`);
  const events: AuditEvent[] = await response.json();
  return { events, total: Number(response.headers.get(TOTAL_COUNT_HEADER) ?? events.length) };
}

export function useAuditEvents(filter: AuditLogFilter, page: number, pageSize: number) {
  return useQuery({
    queryKey: ['audit-events', filter, page, pageSize],
    queryFn: () => getAuditEvents(filter, page, pageSize),
    placeholderData: keepPreviousData,
  });
}
