import { serverMessage } from '@storage/web-client/api';
import { Card, Empty, Flex, Skeleton, Tag, Typography } from 'antd';
import { Link } from 'wouter';
import { CustomerLink } from '../../../components/customer-link.tsx';
import { OnDemandResult } from '../../../components/on-demand.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { ageLabel } from '../../../lib/format.ts';
import { activityTypeLabel, customerName } from '../activity-text.ts';
import { useRecentActivities } from '../api/get-activities.ts';

const FEED_LENGTH = 8;

/** The dashboard's feed: the newest entries of the scope, each with its age. */
export function RecentActivityFeed() {
  const { selectedFacility } = useFacilityScope();
  const activities = useRecentActivities(selectedFacility?.id ?? null, FEED_LENGTH);
  return (
    <Card title="Recent Activity" className="stretch-card" extra={<Link href="/activities">View All</Link>}>
      {activities.isPending && <Skeleton active paragraph={{ rows: 5 }} />}
      {activities.isError && <OnDemandResult status="error" title="Could not load activity" subTitle={serverMessage(activities.error)} />}
      {activities.isSuccess && activities.data.length === 0 && <Empty description="No recent activity" image={Empty.PRESENTED_IMAGE_SIMPLE} />}
      {activities.isSuccess && activities.data.length > 0 && (
        <ul className="activity-feed">
          {activities.data.map((activity) => (
            <li key={activity.id} data-testid="feed-entry">
              <Flex justify="space-between" gap={12} align="flex-start">
                <Flex vertical gap={2} style={{ minWidth: 0 }}>
                  <Typography.Text>{activity.description}</Typography.Text>
                  <Flex gap={8} align="center" wrap>
                    <Tag>{activityTypeLabel(activity.type)}</Tag>
                    {activity.customer && (
                      <Typography.Text type="secondary">
                        <CustomerLink customerId={activity.customer.id}>{customerName(activity)}</CustomerLink>
                      </Typography.Text>
                    )}
                  </Flex>
                </Flex>
                <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                  {ageLabel(activity.createdAt)}
                </Typography.Text>
              </Flex>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
