import { LogoutOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { PageHeader } from '../../components/page-header.tsx';
import { useAuthUser } from '../../features/auth/api/get-auth-user.ts';
import { AddCustomerButton } from '../../features/customers/components/add-customer-button.tsx';
import { NotificationBell } from '../../features/notifications/components/notification-bell.tsx';
import { useFacilityScope } from '../../lib/facility-scope.tsx';

export default function DashboardPage() {
  const { data: user } = useAuthUser();
  const { selectedFacility } = useFacilityScope();
  // One facility in scope reads as "your facility", greeted by name; All Facilities takes the spec's plural variant.
  const subtitle = selectedFacility
    ? `Welcome back, ${user?.firstName || 'User'}. Here's what's happening at your facility.`
    : "Welcome back. Here's what's happening at your facilities.";

  return (
    <PageHeader
      title="Dashboard"
      subtitle={subtitle}
      actions={
        <>
          <NotificationBell />
          <AddCustomerButton />
          <Button href="/api/logout" icon={<LogoutOutlined />}>
            Logout
          </Button>
        </>
      }
    />
  );
}
