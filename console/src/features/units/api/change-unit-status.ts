import type { ChangeUnitStatusRequest, Unit } from '@storage/contracts/units';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showChangedUnit } from './get-units.ts';

export type UnitStatusChange = { unitId: string; change: ChangeUnitStatusRequest };

export async function changeUnitStatus({ unitId, change }: UnitStatusChange): Promise<Unit> {
  const response = await apiRequest('PUT', `/api/units/${encodeURIComponent(unitId)}/status`, change);
  return response.json();
}

/**
 * The answer is the unit as it now is: it replaces the unit in every loaded list, so the card is
 * right even when the read model is late; lists are refetched when next shown.
 */
export function useChangeUnitStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeUnitStatus,
    onSuccess: (changed) => showChangedUnit(queryClient, changed),
  });
}
