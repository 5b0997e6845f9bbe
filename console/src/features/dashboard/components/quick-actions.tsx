import { AppstoreOutlined, FileAddOutlined, LockOutlined, UserAddOutlined } from '@ant-design/icons';
import { Button, Card, Flex } from 'antd';
import { useLocation } from 'wouter';
import { useCanChange } from '../../../lib/staff-permissions.ts';

export function QuickActions({ onAddCustomer }: { onAddCustomer: () => void }) {
  const [, navigate] = useLocation();
  const canChange = useCanChange();
  const actions = [
    { label: 'Add New Customer', icon: <UserAddOutlined />, onClick: onAddCustomer, changes: true },
    { label: 'Find Available Units', icon: <AppstoreOutlined />, onClick: () => navigate('/units?status=available'), changes: false },
    { label: 'Generate Invoice', icon: <FileAddOutlined />, onClick: () => navigate('/billing?new=1'), changes: true },
    { label: 'Manage Locks', icon: <LockOutlined />, onClick: () => navigate('/locks'), changes: false },
  ].filter((action) => canChange || !action.changes);
  return (
    <Card title="Quick Actions" className="stretch-card">
      <Flex vertical gap={12}>
        {actions.map((action) => (
          <Button key={action.label} icon={action.icon} onClick={action.onClick} block className="quick-action">
            {action.label}
          </Button>
        ))}
      </Flex>
    </Card>
  );
}
