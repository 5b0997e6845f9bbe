import { serverMessage } from '@storage/web-client/api';
import { Empty, Result } from 'antd';
import { useState } from 'react';
import { CardGrid, PlaceholderCards } from '../../../components/card-grid.tsx';
import { ListPagination } from '../../../components/list-pagination.tsx';
import { ACTIVITIES_PAGE_SIZE, useActivities } from '../api/get-activities.ts';
import { ActivityCard } from './activity-card.tsx';

const cardColumns = { xs: 24, xl: 12 } as const;

/** What happened with one customer, newest first: as the activity feed tells it. */
export function CustomerActivity({ customerId }: { customerId: string }) {
  const [page, setPage] = useState(1);
  const activities = useActivities({ search: '', type: null, facilityId: null, customerId }, { tab: 'all' }, page);
  if (activities.isPending) return <PlaceholderCards count={2} columns={cardColumns} rows={3} size="small" testId="activity-placeholder" />;
  if (activities.isError) return <Result status="error" title="Could not load activity" subTitle={serverMessage(activities.error)} />;
  if (activities.data.activities.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No activity yet" />;
  return (
    <>
      <CardGrid
        items={activities.data.activities}
        columns={cardColumns}
        dimmed={activities.isPlaceholderData}
        renderCard={(activity) => <ActivityCard activity={activity} />}
      />
      <ListPagination page={page} pageSize={ACTIVITIES_PAGE_SIZE} total={activities.data.total} onChange={setPage} />
    </>
  );
}
