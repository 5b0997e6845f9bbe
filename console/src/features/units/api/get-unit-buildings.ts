import type { UnitBuilding } from '@storage/contracts/units';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type UnitsFilter, unitsFilterParams, unitsQueryKey } from './get-units.ts';

/** The building headings of the whole filtered list, with their unit counts. */
export async function getUnitBuildings(filter: UnitsFilter): Promise<UnitBuilding[]> {
  const response = await apiRequest('GET', `/api/units/buildings?${unitsFilterParams(filter)}`);
  return response.json();
}

export const unitBuildingsQueryOptions = (filter: UnitsFilter) =>
  queryOptions({ queryKey: [...unitsQueryKey, 'buildings', filter], queryFn: () => getUnitBuildings(filter) });

export function useUnitBuildings(filter: UnitsFilter) {
  return useQuery({ ...unitBuildingsQueryOptions(filter), placeholderData: keepPreviousData });
}
