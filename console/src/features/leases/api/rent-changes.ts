import type {
  BulkRentChangeRequest,
  CancelRentChangeRequest,
  LeaseRentChanges,
  RentChange,
  RentChangePlan,
  RentChangeRequest,
  RentChangeTerms,
} from '@storage/contracts/rent-changes';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { leasesQueryKey } from './get-leases.ts';

// Rent changes: one lease's (the lease card), and a facility's bulk increase (the Leases page).

export const rentChangesQueryKey = [...leasesQueryKey, 'rent-changes'] as const;

export const leaseRentChangesQueryOptions = (leaseId: string) =>
  queryOptions({
    queryKey: [...rentChangesQueryKey, leaseId],
    queryFn: async (): Promise<LeaseRentChanges> => (await apiRequest('GET', `/api/leases/${encodeURIComponent(leaseId)}/rent-changes`)).json(),
  });

/** The lease's changes and the earliest effective date a new one may have; `enabled` false: not asked. */
export function useLeaseRentChanges(leaseId: string, enabled = true) {
  return useQuery({ ...leaseRentChangesQueryOptions(leaseId), enabled });
}

export function useRentChangeTerms(facilityId: string | null) {
  return useQuery({
    queryKey: [...rentChangesQueryKey, 'terms', facilityId],
    queryFn: async (): Promise<RentChangeTerms> =>
      (await apiRequest('GET', `/api/rent-changes/terms?${new URLSearchParams({ facilityId: facilityId ?? '' })}`)).json(),
    enabled: facilityId !== null,
  });
}

/** `key`: one per dialog opening, so a double submit schedules once. */
export function useScheduleRentChange(leaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ request, key }: { request: RentChangeRequest; key: string }): Promise<RentChange> =>
      (await apiRequest('POST', `/api/leases/${encodeURIComponent(leaseId)}/rent-changes`, request, { 'Idempotency-Key': key })).json(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rentChangesQueryKey }),
  });
}

export function useCancelRentChange(leaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ changeId, request }: { changeId: string; request: CancelRentChangeRequest }) => {
      await apiRequest('DELETE', `/api/leases/${encodeURIComponent(leaseId)}/rent-changes/${encodeURIComponent(changeId)}`, request);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rentChangesQueryKey }),
  });
}

export function usePreviewRentChanges() {
  return useMutation({
    mutationFn: async (request: BulkRentChangeRequest): Promise<RentChangePlan> => (await apiRequest('POST', '/api/rent-changes/preview', request)).json(),
  });
}

/** `key`: one per dialog opening: a retry schedules no lease twice. */
export function useBulkRentChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ request, key }: { request: BulkRentChangeRequest; key: string }): Promise<RentChangePlan> =>
      (await apiRequest('POST', '/api/rent-changes/bulk', request, { 'Idempotency-Key': key })).json(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rentChangesQueryKey }),
  });
}
