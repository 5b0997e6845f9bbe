import type { UnitStatus } from '@storage/contracts/enums';
import type { ListTotal } from '@storage/contracts/page-info';
import type { Sort } from '@storage/contracts/sorting';
import type { Unit, unitSorting } from '@storage/contracts/units';
import { keepPreviousData, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchListPage, type PageAt } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';

export const UNITS_PAGE_SIZE = 48;
const CHOICES = 20;

export const unitsQueryKey = ['units'] as const;

export type UnitsFilter = { search: string; facilityId: string | null; status?: UnitStatus | null };
export type UnitsSort = Sort<keyof typeof unitSorting.columns>;

export type UnitsPage = { units: Unit[]; total: ListTotal };

export function unitsFilterParams({ search, facilityId, status }: UnitsFilter): URLSearchParams {
  return queryParams({ search, facilityId, status });
}

export async function getUnits(
  filter: UnitsFilter,
  page: PageAt,
  { sort, pageSize = UNITS_PAGE_SIZE }: { sort?: UnitsSort; pageSize?: number } = {},
): Promise<UnitsPage> {
  const { search, facilityId, status } = filter;
  const params = queryParams({ search, facilityId, status, ...sort, pageSize });
  const { rows: units, total } = await fetchListPage<Unit>('/api/units', params, page);
  return { units, total };
}

export const unitsQueryOptions = (filter: UnitsFilter, sort: UnitsSort, page: PageAt) =>
  queryOptions({ queryKey: [...unitsQueryKey, 'list', filter, sort, page], queryFn: () => getUnits(filter, page, { sort }) });

/** The previous page stays on screen while the next one loads. */
export function useUnits(filter: UnitsFilter, sort: UnitsSort, page: PageAt) {
  return useQuery({ ...unitsQueryOptions(filter, sort, page), placeholderData: keepPreviousData });
}

/** The first units a picker offers for a search term. */
export const unitChoicesQueryOptions = (filter: UnitsFilter) =>
  queryOptions({
    queryKey: [...unitsQueryKey, 'choices', filter],
    queryFn: async () => (await getUnits(filter, 1, { pageSize: CHOICES })).units,
  });

/**
 * A unit as a change answered it: it replaces the unit in every loaded list, so the card is right
 * even while the read model is late; the lists are refetched when next shown.
 */
export function showChangedUnit(queryClient: QueryClient, changed: Unit) {
  queryClient.setQueriesData<UnitsPage>(
    { queryKey: [...unitsQueryKey, 'list'] },
    (page) => page && { ...page, units: page.units.map((unit) => (unit.id === changed.id ? changed : unit)) },
  );
  return queryClient.invalidateQueries({ queryKey: unitsQueryKey, refetchType: 'none' });
}
