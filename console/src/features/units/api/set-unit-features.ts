import type { SetUnitFeaturesRequest, Unit } from '@storage/contracts/units';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showChangedUnit } from './get-units.ts';

export type UnitFeaturesChange = { unitId: string; features: SetUnitFeaturesRequest };

export async function setUnitFeatures({ unitId, features }: UnitFeaturesChange): Promise<Unit> {
  const response = await apiRequest('PUT', `/api/units/${encodeURIComponent(unitId)}/features`, features);
  return response.json();
}

/** As a status change: the answer replaces the unit in every loaded list, so the card is right even while the read model is late. */
export function useSetUnitFeatures() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUnitFeatures,
    onSuccess: (changed) => showChangedUnit(queryClient, changed),
  });
}
