import { UnitStatus } from '@storage/contracts/enums';
import type { Unit } from '@storage/contracts/units';
import { serverMessage } from '@storage/web-client/api';
import { Empty, Flex, Result, Skeleton, Tag, Typography } from 'antd';
import { useSearchParams } from 'wouter';
import { CardGrid, PlaceholderCards } from '../../../components/card-grid.tsx';
import { ListSearch } from '../../../components/list-search.tsx';
import { LoadMoreButton } from '../../../components/load-more-button.tsx';
import { useSearchTerm } from '../../../hooks/use-search-term.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { useUnitBuildings } from '../api/get-unit-buildings.ts';
import { useUnits } from '../api/get-units.ts';
import { UnitCard } from './unit-card.tsx';

/** Spec §9: while loading, 3 building groups of 8 placeholder cards. */
const LOADING_GROUPS = 3;
const LOADING_CARDS_PER_GROUP = 8;

const cardColumns = { xs: 24, sm: 12, lg: 8, xl: 6 } as const;

type BuildingGroup = { building: string; units: Unit[] };

/** Consecutive units of one building form a group: the server lists them by building. */
function groupByBuilding(units: Unit[]): BuildingGroup[] {
  const groups: BuildingGroup[] = [];
  for (const unit of units) {
    const last = groups.at(-1);
    if (last && last.building === unit.building) last.units.push(unit);
    else groups.push({ building: unit.building, units: [unit] });
  }
  return groups;
}

const headingOf = (building: string) => (building.trim() ? `Building ${building}` : 'Unassigned');

const unitCount = (count: number) => `${count} ${count === 1 ? 'unit' : 'units'}`;

export function UnitsList() {
  const { input, setInput, search } = useSearchTerm();
  const { selectedFacility } = useFacilityScope();
  // The dashboard's 'Find Available Units' opens /units?status=available.
  const [searchParams, setSearchParams] = useSearchParams();
  const status = UnitStatus.safeParse(searchParams.get('status')).data ?? null;
  const filter = { search, facilityId: selectedFacility?.id ?? null, status };
  const units = useUnits(filter);
  const buildings = useUnitBuildings(filter);

  const pages = units.data?.pages ?? [];
  const loaded = pages.flatMap((page) => page.units);
  const total = pages.at(-1)?.total ?? 0;
  const unitCounts = new Map(buildings.data?.map((b) => [b.building, b.unitCount]));

  return (
    <Flex vertical gap={24}>
      <ListSearch
        placeholder="Search units by number, building, or size..."
        label="Search units"
        value={input}
        onChange={setInput}
        count={units.isSuccess ? unitCount(total) : undefined}
      />
      {status && (
        <Flex>
          <Tag closable onClose={() => setSearchParams({})} data-testid="unit-status-filter">
            Showing {status} units only
          </Tag>
        </Flex>
      )}

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
        groupByBuilding(loaded).map(({ building, units: inBuilding }) => {
          const count = unitCounts.get(building);
          return (
            <section key={building} aria-label={headingOf(building)} style={{ opacity: units.isPlaceholderData ? 0.6 : 1 }}>
              <Flex align="center" gap={8} style={{ marginBottom: 12 }}>
                <Typography.Title level={4} style={{ margin: 0 }}>
                  {headingOf(building)}
                </Typography.Title>
                <Tag data-testid="building-unit-count">{count === undefined ? '—' : unitCount(count)}</Tag>
              </Flex>
              <CardGrid items={inBuilding} columns={cardColumns} renderCard={(unit) => <UnitCard unit={unit} />} />
            </section>
          );
        })}

      <LoadMoreButton list={units} />
    </Flex>
  );
}
