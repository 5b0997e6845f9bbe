import type { CreateFacilityRequest, Facility } from '@storage/contracts/facilities';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { facilitiesQueryKey } from '../../../lib/facilities.ts';

export async function createFacility(request: CreateFacilityRequest): Promise<Facility> {
  const response = await apiRequest('POST', '/api/facilities', request);
  return response.json();
}

export function useCreateFacility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFacility,
    // The sidebar's facility selector reads the same query: it shows the new facility at once.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: facilitiesQueryKey }),
  });
}
