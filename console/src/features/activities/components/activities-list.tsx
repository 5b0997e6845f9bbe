import { DownloadOutlined, ExclamationCircleOutlined } from '@ant-design/icons';
import type { ActivityTab } from '@storage/contracts/activities';
import { type ActivityType, activityTypes } from '@storage/contracts/enums';
import { Button, Card, Flex, Result, Select, Tabs } from 'antd';
import { useState } from 'react';
import { CardGrid, PlaceholderCards } from '../../../components/card-grid.tsx';
import { EmptyList } from '../../../components/empty-list.tsx';
import { LoadMoreButton } from '../../../components/load-more-button.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { useSearchTerm } from '../../../hooks/use-search-term.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { activitiesCsv } from '../activities-csv.ts';
import { activityTabs, activityTypeLabel } from '../activity-text.ts';
import { type ActivitiesFilter, useActivities } from '../api/get-activities.ts';
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

export function ActivitiesList() {
  const { input, setInput, search } = useSearchTerm();
  const [type, setType] = useState<ActivityType | null>(null);
  const [tab, setTab] = useState<ActivityTab>('all');
  const { selectedFacility } = useFacilityScope();
  const filter: ActivitiesFilter = { search, type, facilityId: selectedFacility?.id ?? null };
  const activities = useActivities(filter, tab);
  const counts = useActivityCounts(filter);

  const shown = (activities.data?.pages ?? []).flatMap((page) => page.activities);
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
      <LoadMoreButton list={activities} />
    </Flex>
  );

  return (
    <Flex vertical gap={16}>
      <Flex gap={12} align="center" wrap>
        <SearchInput placeholder="Search activities..." label="Search activities" value={input} onChange={setInput} />
        <Select<ActivityType | typeof ALL_TYPES>
          aria-label="Activity type"
          value={type ?? ALL_TYPES}
          options={typeOptions}
          onChange={(value) => setType(value === ALL_TYPES ? null : value)}
          style={{ minWidth: 200 }}
          popupMatchSelectWidth={false}
        />
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
        onChange={(key) => setTab(key as ActivityTab)}
        items={activityTabs.map(({ tab: key, label }) => ({
          key,
          label: (
            <Flex gap={6} align="center">
              {label}
              <span className={key === tab ? 'tab-count tab-count-active' : 'tab-count'}>{counts.data?.[key] ?? 0}</span>
            </Flex>
          ),
        }))}
      />
      {body}
    </Flex>
  );
}
