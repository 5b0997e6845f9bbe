import type { Facility, UpdateFacilityRequest } from '@storage/contracts/facilities';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { facilitiesQueryKey } from '../../../lib/facilities.ts';

export type FacilityUpdate = { facilityId: string; changes: UpdateFacilityRequest };

export async function updateFacility({ facilityId, changes }: FacilityUpdate): Promise<Facility> {
  const response = await apiRequest('PATCH', `/api/facilities/${encodeURIComponent(facilityId)}`, changes);
  return response.json();
}

export function useUpdateFacility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFacility,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: facilitiesQueryKey }),
  });
}
