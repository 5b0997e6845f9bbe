import { DownloadOutlined, ExclamationCircleOutlined } from '@ant-design/icons';
import { ActivityTab, activitySorting } from '@storage/contracts/activities';
import { ActivityType, activityTypes } from '@storage/contracts/enums';
import { totalText } from '@storage/contracts/page-info';
import { Button, Card, Flex, Result, Select, Tabs } from 'antd';
import { CardGrid, PlaceholderCards } from '../../../components/card-grid.tsx';
import { EmptyList } from '../../../components/empty-list.tsx';
import { ListPagination } from '../../../components/list-pagination.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { SortSelect } from '../../../components/sort-select.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { useListState } from '../../../lib/list-state.ts';
import { activitiesCsv } from '../activities-csv.ts';
import { activityTabs, activityTypeLabel } from '../activity-text.ts';
import { ACTIVITIES_PAGE_SIZE, type ActivitiesFilter, useActivities } from '../api/get-activities.ts';
import { useActivityCounts } from '../api/get-activity-counts.ts';
import { ActivityCard } from './activity-card.tsx';

const LOADING_PLACEHOLDER_CARDS = 8;
const ALL_TYPES = 'all';

const cardColumns = { xs: 24, xl: 12 } as const;
const typeOptions = [{ value: ALL_TYPES, label: 'All Types' }, ...activityTypes.map((type) => ({ value: type, label: activityTypeLabel(type) }))];

function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  link.click();
  URL.revokeObjectURL(url);
}

const sortLabels = { createdAt: 'Time' } as const;
const orderLabels = { desc: 'Newest first', asc: 'Oldest first' } as const;

export function ActivitiesList() {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const list = useListState({ sorting: activitySorting, filters: { type: ActivityType, tab: ActivityTab }, scope: facilityId });
  const { search } = list;
  const { type } = list.filters;
  const tab = list.filters.tab ?? 'all';
  const filter: ActivitiesFilter = { search, type, facilityId };
  const activities = useActivities(filter, { tab, sort: list.sort }, list.at);
  const counts = useActivityCounts(filter);

  const shown = activities.data?.activities ?? [];
  const filtered = Boolean(search || type);
  const emptyText = activityTabs.find((candidate) => candidate.tab === tab)!.empty;

  const body = (
    <Flex vertical gap={16}>
      {activities.isPending && <PlaceholderCards count={LOADING_PLACEHOLDER_CARDS} columns={cardColumns} rows={3} size="small" testId="activity-placeholder" />}
      {activities.isError && (
        <Card>
          <Result
            icon={<ExclamationCircleOutlined style={{ color: '#ef4444' }} />}
            title="Error Loading Activities"
            subTitle="Unable to load activity data. Please try refreshing the page."
          />
        </Card>
      )}
      {activities.isSuccess && shown.length === 0 && (
        <EmptyList title={emptyText} hint={filtered ? 'Try adjusting your search or filter' : 'Activity appears here as it happens'} />
      )}
      {activities.isSuccess && shown.length > 0 && (
        <CardGrid items={shown} columns={cardColumns} dimmed={activities.isPlaceholderData} renderCard={(activity) => <ActivityCard activity={activity} />} />
      )}
      <ListPagination page={list.page} pageSize={ACTIVITIES_PAGE_SIZE} total={activities.data?.total ?? 0} onChange={list.setPage} />
    </Flex>
  );

  return (
    <Flex vertical gap={16}>
      <Flex gap={12} align="center" wrap>
        <SearchInput placeholder="Search activities..." label="Search activities" value={list.searchInput} onChange={list.setSearch} />
        <Select<ActivityType | typeof ALL_TYPES>
          aria-label="Activity type"
          value={type ?? ALL_TYPES}
          options={typeOptions}
          onChange={(value) => list.setFilter('type', value === ALL_TYPES ? null : value)}
          style={{ minWidth: 200 }}
          popupMatchSelectWidth={false}
        />
        <SortSelect list={list} labels={sortLabels} orderLabels={orderLabels} />
        <Button
          icon={<DownloadOutlined />}
          disabled={shown.length === 0}
          onClick={() => download(`activities-${new Date().toISOString().slice(0, 10)}.csv`, activitiesCsv(shown))}
        >
          Export
        </Button>
      </Flex>
      <Tabs
        className="wrapping-tabs"
        activeKey={tab}
        onChange={(key) => list.setFilter('tab', key === 'all' ? null : (key as ActivityTab))}
        items={activityTabs.map(({ tab: key, label }) => ({
          key,
          label: (
            <Flex gap={6} align="center">
              {label}
              <span className={key === tab ? 'tab-count tab-count-active' : 'tab-count'}>{counts.data ? totalText(counts.data[key]) : 0}</span>
            </Flex>
          ),
        }))}
      />
      {body}
    </Flex>
  );
}
