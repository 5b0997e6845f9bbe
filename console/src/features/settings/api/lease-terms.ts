import type { LeaseTermsAnswer, UpdateLeaseTermsRequest } from '@storage/contracts/lease-terms';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryParams } from '../../../lib/list-state.ts';

export const leaseTermsQueryKey = ['settings', 'lease-terms'] as const;

export async function getLeaseTerms(facilityId: string | null): Promise<LeaseTermsAnswer> {
  const response = await apiRequest('GET', `/api/settings/lease-terms?${queryParams({ facilityId })}`);
  return response.json();
}

export const leaseTermsQueryOptions = (facilityId: string | null) =>
  queryOptions({ queryKey: [...leaseTermsQueryKey, facilityId], queryFn: () => getLeaseTerms(facilityId) });

/** The business's additional lease terms and, with a facility, the facility's own and those that apply to it. */
export function useLeaseTerms(facilityId: string | null) {
  return useQuery(leaseTermsQueryOptions(facilityId));
}

export async function updateLeaseTerms(request: UpdateLeaseTermsRequest): Promise<LeaseTermsAnswer> {
  const response = await apiRequest('PUT', '/api/settings/lease-terms', request);
  return response.json();
}

/** A business's terms are also those of every facility that follows them: every scope is read again. */
export function useUpdateLeaseTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLeaseTerms,
    onSuccess: (answer, request) => {
      queryClient.setQueryData([...leaseTermsQueryKey, request.facilityId], answer);
      return queryClient.invalidateQueries({ queryKey: leaseTermsQueryKey });
    },
  });
}
