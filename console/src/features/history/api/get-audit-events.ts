import type { AuditEvent, auditSorting } from '@storage/contracts/history';
import type { ListTotal } from '@storage/contracts/page-info';
import type { Sort } from '@storage/contracts/sorting';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchListPage, type PageAt } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';

export type AuditLogFilter = {
  type: string | null;
  actor: string;
  facilityId: string | null;
  /** At most one of a customer, a unit and an invoice (the picker's), or a stream by its name (an older address's). */
  customerId: string | null;
  unitId: string | null;
  invoiceId: string | null;
  stream: string;
  correlationId: string | null;
  from: string;
  to: string;
};
export type AuditLogSort = Sort<keyof typeof auditSorting.columns>;

/** The filter as query parameters, the same for the list and its CSV export. */
export function auditFilterParams({
  type,
  actor,
  facilityId,
  customerId,
  unitId,
  invoiceId,
  stream,
  correlationId,
  from,
  to,
}: AuditLogFilter): URLSearchParams {
  return queryParams({ type, actor, facilityId, customerId, unitId, invoiceId, stream, correlationId, from, to });
}

export async function getAuditEvents(
  filter: AuditLogFilter,
  sort: AuditLogSort,
  page: PageAt,
  pageSize: number,
): Promise<{ events: AuditEvent[]; total: ListTotal }> {
  const params = auditFilterParams(filter);
  for (const [key, value] of Object.entries({ ...sort, pageSize })) params.set(key, String(value));
  const { rows: events, total } = await fetchListPage<AuditEvent>('/api/audit/events', params, page);
  return { events, total };
}

export function useAuditEvents(filter: AuditLogFilter, sort: AuditLogSort, page: PageAt, pageSize: number) {
  return useQuery({
    queryKey: ['audit-events', filter, sort, page, pageSize],
    queryFn: () => getAuditEvents(filter, sort, page, pageSize),
    placeholderData: keepPreviousData,
  });
}
