import { MailOutlined } from '@ant-design/icons';
import type { Activity } from '@storage/contracts/activities';
import { Card, Flex, Tag, Typography } from 'antd';
import { CustomerLink } from '../../../components/customer-link.tsx';
import { formatDate, formatTime12h } from '../../../lib/format.ts';
import { activityDetails, activityEmail, activityTypeLabel, customerName } from '../activity-text.ts';

export function ActivityCard({ activity }: { activity: Activity }) {
  const details = activityDetails(activity.metadata);
  return (
    <Card data-testid="activity-card" className="stretch-card" size="small">
      <Flex vertical gap={8}>
        <Flex justify="space-between" align="flex-start" gap={8} wrap>
          <Flex vertical gap={2} style={{ minWidth: 0 }}>
            <Tag color="blue" style={{ alignSelf: 'flex-start' }}>
              {activityTypeLabel(activity.type)}
            </Tag>
            <Typography.Text strong>
              {activity.customer ? <CustomerLink customerId={activity.customer.id}>{customerName(activity)}</CustomerLink> : customerName(activity)}
            </Typography.Text>
          </Flex>
          <Flex vertical align="flex-end">
            <Typography.Text type="secondary">{formatDate(activity.createdAt)}</Typography.Text>
            <Typography.Text type="secondary">{formatTime12h(activity.createdAt)}</Typography.Text>
          </Flex>
        </Flex>
        <Typography.Text>{activity.description}</Typography.Text>
        {details.length > 0 && (
          <dl className="activity-details">
            {details.map((detail) => (
              <div key={detail.label}>
                <dt>{detail.label}</dt>
                <dd>{detail.value}</dd>
              </div>
            ))}
          </dl>
        )}
        <Typography.Text type="secondary" ellipsis>
          <MailOutlined className="card-line-icon" />
          {activityEmail(activity)}
        </Typography.Text>
      </Flex>
    </Card>
  );
}
