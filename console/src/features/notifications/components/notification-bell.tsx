import {
  BankOutlined,
  BellOutlined,
  CreditCardOutlined,
  FileTextOutlined,
  LockOutlined,
  RollbackOutlined,
  ThunderboltOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import type { NotificationType } from '@storage/contracts/enums';
import type { Notification } from '@storage/contracts/notifications';
import { Badge, Button, Card, Dropdown, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { formatTime12h } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useNotifications } from '../api/get-notifications.ts';
import { useMarkNotificationRead, useMarkNotificationsRead } from '../api/mark-notification-read.ts';

// The spec's icons by type (💳 🏢 🔋, 📄 for the rest), drawn with the console's icon set: emoji
// show as empty boxes where no emoji font is installed.
const typeIcons: Partial<Record<NotificationType, ReactNode>> = {
  payment_overdue: <CreditCardOutlined />,
  unit_assigned: <BankOutlined />,
  lock_battery_low: <ThunderboltOutlined />,
  payment_refunded: <RollbackOutlined />,
  renter_locked_out: <LockOutlined />,
  autopay_failed: <CreditCardOutlined />,
  access_restored: <UnlockOutlined />,
};

export function NotificationBell() {
  const { selectedFacility } = useFacilityScope();
  const { data, isPending } = useNotifications(selectedFacility?.id ?? null);
  const notifications = data?.notifications ?? [];
  // The badge counts every unread notification, also those past the end of the list.
  const unreadCount = data?.unread ?? 0;
  const markRead = useMarkNotificationRead();
  const markAllRead = useMarkNotificationsRead();
  const toast = useToast();

  const open = (notification: Notification) => {
    if (notification.read) return;
    markRead.mutate(notification.id, { onError: (error) => toast.failure('Failed to mark notification as read', error) });
  };

  const markAll = () => markAllRead.mutate(selectedFacility?.id ?? null, { onError: (error) => toast.failure('Failed to mark notifications as read', error) });

  const panel = (
    <Card
      size="small"
      className="notification-panel"
      title="Notifications"
      extra={
        <Button type="link" size="small" disabled={unreadCount === 0} loading={markAllRead.isPending} onClick={markAll}>
          Mark all as read
        </Button>
      }
    >
      {isPending && (
        <Typography.Text className="notification-status" type="secondary">
          Loading...
        </Typography.Text>
      )}
      {!isPending && notifications.length === 0 && (
        <Typography.Text className="notification-status" type="secondary">
          No notifications
        </Typography.Text>
      )}
      {notifications.length > 0 && (
        <ul className="notification-list">
          {notifications.map((notification) => (
            <li key={notification.id}>
              <button
                type="button"
                className={notification.read ? 'notification-item' : 'notification-item notification-item-unread'}
                onClick={() => open(notification)}
              >
                <span className="notification-icon" aria-hidden>
                  {typeIcons[notification.type] ?? <FileTextOutlined />}
                </span>
                <Flex vertical flex={1} style={{ minWidth: 0 }}>
                  <Typography.Text strong={!notification.read}>{notification.title}</Typography.Text>
                  <Typography.Text type="secondary">{notification.message}</Typography.Text>
                  <Typography.Text type="secondary" className="notification-time">
                    {formatTime12h(notification.createdAt)}
                  </Typography.Text>
                </Flex>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );

  return (
    <Dropdown trigger={['click']} placement="bottomRight" popupRender={() => panel}>
      <Badge count={unreadCount} size="small" offset={[-4, 4]}>
        <Button shape="circle" icon={<BellOutlined />} aria-label={`Notifications, ${unreadCount} unread`} />
      </Badge>
    </Dropdown>
  );
}
