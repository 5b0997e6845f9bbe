import type { CreateUnitRequest, Unit } from '@storage/contracts/units';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unitsQueryKey } from './get-units.ts';

export async function createUnit(request: CreateUnitRequest): Promise<Unit> {
  const response = await apiRequest('POST', '/api/units', request);
  return response.json();
}

export function useCreateUnit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUnit,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: unitsQueryKey }),
  });
}
