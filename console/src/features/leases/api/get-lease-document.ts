import type { LeaseDocument } from '@storage/contracts/leases';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { leasesQueryKey } from './get-leases.ts';

/** The reader's time zone: the document's generated time is written in it. */
const readerTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export async function getLeaseDocument(leaseId: string): Promise<LeaseDocument> {
  const params = new URLSearchParams({ timeZone: readerTimeZone() });
  const response = await apiRequest('GET', `/api/leases/${encodeURIComponent(leaseId)}/document?${params}`);
  return response.json();
}

export const leaseDocumentQueryOptions = (leaseId: string) =>
  queryOptions({
    queryKey: [...leasesQueryKey, 'document', leaseId],
    queryFn: () => getLeaseDocument(leaseId),
    // Generated on each viewing: it carries its generated time and today's late fee.
    staleTime: 0,
  });

export function useLeaseDocument(leaseId: string) {
  return useQuery(leaseDocumentQueryOptions(leaseId));
}

export function leaseDocumentPdfUrl(leaseId: string): string {
  return `/api/leases/${encodeURIComponent(leaseId)}/document.pdf?${new URLSearchParams({ timeZone: readerTimeZone() })}`;
}
