import { UnitStatus } from '@storage/contracts/enums';
import { totalText } from '@storage/contracts/page-info';
import { type Unit, unitSorting } from '@storage/contracts/units';
import { serverMessage } from '@storage/web-client/api';
import { Empty, Flex, Result, Skeleton, Tag, Typography } from 'antd';
import { CardGrid, PlaceholderCards } from '../../../components/card-grid.tsx';
import { ListPagination } from '../../../components/list-pagination.tsx';
import { ListSearch } from '../../../components/list-search.tsx';
import { SortSelect } from '../../../components/sort-select.tsx';
import { StatusFilter } from '../../../components/status-filter.tsx';
import { useFacilities } from '../../../lib/facilities.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { NO_TOTAL } from '../../../lib/list-page.ts';
import { useListState } from '../../../lib/list-state.ts';
import { useUnitBuildings } from '../api/get-unit-buildings.ts';
import { UNITS_PAGE_SIZE, useUnits } from '../api/get-units.ts';
import { unitStatusOptions } from '../unit-status.ts';
import { UnitCard } from './unit-card.tsx';

/** Spec §9: while loading, 3 building groups of 8 placeholder cards. */
const LOADING_GROUPS = 3;
const LOADING_CARDS_PER_GROUP = 8;

const cardColumns = { xs: 24, sm: 12, lg: 8, xl: 6 } as const;

const sortLabels = { unitNumber: 'Unit number', size: 'Size', monthlyRate: 'Monthly rate', status: 'Status' } as const;

type BuildingGroup = { key: string; facilityId: string | null; building: string; units: Unit[] };

/** A heading's key: a building of one facility (building A of two sites are two headings). */
const headingKey = (facilityId: string | null, building: string) => `${facilityId ?? 'none'}/${building}`;

/** Consecutive units of one facility's building form a group: the server lists them facility by facility, building by building. */
function groupByBuilding(units: Unit[]): BuildingGroup[] {
  const groups: BuildingGroup[] = [];
  for (const unit of units) {
    const key = headingKey(unit.facilityId, unit.building);
    const last = groups.at(-1);
    if (last && last.key === key) last.units.push(unit);
    else groups.push({ key, facilityId: unit.facilityId, building: unit.building, units: [unit] });
  }
  return groups;
}

const buildingWords = (building: string) => (building.trim() ? `Building ${building}` : 'Unassigned');

const unitCount = (count: number) => `${count} ${count === 1 ? 'unit' : 'units'}`;

/** Under their building headings (facility by facility, A→Z), each building's units in the order chosen. */
export function UnitsList() {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  // The dashboard's 'Find Available Units' opens /units?status=available.
  const list = useListState({ sorting: unitSorting, filters: { status: UnitStatus }, scope: facilityId });
  const filter = { search: list.search, facilityId, status: list.filters.status };
  const units = useUnits(filter, list.sort, list.at);
  const buildings = useUnitBuildings(filter);

  const loaded = units.data?.units ?? [];
  const total = units.data?.total ?? NO_TOTAL;
  const unitCounts = new Map(buildings.data?.map((b) => [headingKey(b.facilityId, b.building), b.unitCount]));
  // With every facility in view, each heading says whose building it is.
  const facilityNames = new Map(useFacilities().data?.map((f) => [f.id, f.name]));
  const headingOf = (group: BuildingGroup) =>
    facilityId === null && facilityNames.size > 1
      ? `${group.facilityId ? (facilityNames.get(group.facilityId) ?? 'Facility') : 'No facility'} · ${buildingWords(group.building)}`
      : buildingWords(group.building);

  return (
    <Flex vertical gap={24}>
      <ListSearch
        placeholder="Search units by number, building, or size..."
        label="Search units"
        value={list.searchInput}
        onChange={list.setSearch}
        count={units.isSuccess ? `${totalText(total)} ${total.count === 1 ? 'unit' : 'units'}` : undefined}
      >
        <StatusFilter label="Unit status" value={list.filters.status} options={unitStatusOptions} onChange={(status) => list.setFilter('status', status)} />
        <SortSelect list={list} labels={sortLabels} />
      </ListSearch>

      {units.isPending &&
        Array.from({ length: LOADING_GROUPS }, (_, group) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: loading placeholders, a fixed list that never reorders
          <section key={group} aria-busy="true">
            <Skeleton.Input active size="small" style={{ marginBottom: 16 }} />
            <PlaceholderCards count={LOADING_CARDS_PER_GROUP} columns={cardColumns} rows={2} testId="unit-placeholder" />
          </section>
        ))}

      {units.isError && <Result status="error" title="Could not load units" subTitle={serverMessage(units.error)} />}

      {units.isSuccess && loaded.length === 0 && <Empty description="No units found" />}

      {units.isSuccess &&
        groupByBuilding(loaded).map((group) => {
          const count = unitCounts.get(group.key);
          return (
            <section key={group.key} aria-label={headingOf(group)} style={{ opacity: units.isPlaceholderData ? 0.6 : 1 }}>
              <Flex align="center" gap={8} style={{ marginBottom: 12 }}>
                <Typography.Title level={4} style={{ margin: 0 }}>
                  {headingOf(group)}
                </Typography.Title>
                <Tag data-testid="building-unit-count">{count === undefined ? '—' : unitCount(count)}</Tag>
              </Flex>
              <CardGrid items={group.units} columns={cardColumns} renderCard={(unit) => <UnitCard unit={unit} />} />
            </section>
          );
        })}

      <ListPagination page={list.page} pageSize={UNITS_PAGE_SIZE} total={total} onChange={list.setPage} />
    </Flex>
  );
}
