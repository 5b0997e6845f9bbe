import { LogoutOutlined } from '@ant-design/icons';
import type { Customer } from '@storage/contracts/customers';
import { Button, Col, Flex, Row } from 'antd';
import { useState } from 'react';
import { OnDemandResult } from '../../components/on-demand.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { activitiesQueryKey } from '../../features/activities/api/get-activities.ts';
import { RecentActivityFeed } from '../../features/activities/components/recent-activity-feed.tsx';
import { useAuthUser } from '../../features/auth/api/get-auth-user.ts';
import { AddCustomerButton } from '../../features/customers/components/add-customer-button.tsx';
import { LazyCustomerFormDialog } from '../../features/customers/components/lazy-customer-form-dialog.tsx';
import { dashboardQueryKey, useDashboardMetrics } from '../../features/dashboard/api/get-dashboard-metrics.ts';
import { MetricCards } from '../../features/dashboard/components/metric-cards.tsx';
import { OccupancyCard } from '../../features/dashboard/components/occupancy-card.tsx';
import { QuickActions } from '../../features/dashboard/components/quick-actions.tsx';
import { RecentCustomersTable } from '../../features/dashboard/components/recent-customers-table.tsx';
import { notificationsQueryKey } from '../../features/notifications/api/get-notifications.ts';
import { NotificationBell } from '../../features/notifications/components/notification-bell.tsx';
import { BusinessProfilePrompt } from '../../features/settings/components/business-profile-prompt.tsx';
import { useRefreshAfterWrites } from '../../hooks/use-refresh-after-writes.ts';
import { useFacilityScope } from '../../lib/facility-scope.tsx';

/** Everything the dashboard summarises changes with any write made from it. */
const dashboardQueries = [dashboardQueryKey, activitiesQueryKey, notificationsQueryKey];

/** The customer dialog open from the dashboard: adding (no customer) or editing one. */
type CustomerDialog = { open: false } | { open: true; customer?: Customer };

export default function DashboardPage() {
  const { data: user } = useAuthUser();
  const { selectedFacility } = useFacilityScope();
  const metrics = useDashboardMetrics(selectedFacility?.id ?? null);
  const [dialog, setDialog] = useState<CustomerDialog>({ open: false });
  useRefreshAfterWrites(dashboardQueries);
  // One facility in scope reads as "your facility", greeted by name; All Facilities takes the spec's plural variant.
  const subtitle = selectedFacility
    ? `Welcome back, ${user?.firstName || 'User'}. Here's what's happening at your facility.`
    : "Welcome back. Here's what's happening at your facilities.";

  return (
    <>
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
      <Flex vertical gap={16}>
        <BusinessProfilePrompt canEdit={user?.role === 'owner' || user?.role === 'manager'} />
        {metrics.isError ? (
          <OnDemandResult
            status="error"
            title={metrics.error.message}
            subTitle="The dashboard figures could not be loaded."
            extra={
              <Button onClick={() => metrics.refetch()} loading={metrics.isFetching}>
                Try again
              </Button>
            }
          />
        ) : (
          <>
            <OccupancyCard buildings={metrics.data?.buildingOccupancy} />
            <MetricCards metrics={metrics.data} loading={metrics.isPending} variant="dashboard" />
          </>
        )}
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={16}>
            <RecentActivityFeed />
          </Col>
          <Col xs={24} lg={8}>
            <QuickActions onAddCustomer={() => setDialog({ open: true })} />
          </Col>
        </Row>
        <RecentCustomersTable onEdit={(customer) => setDialog({ open: true, customer })} />
      </Flex>
      <LazyCustomerFormDialog open={dialog.open} customer={dialog.open ? dialog.customer : undefined} onClose={() => setDialog({ open: false })} />
    </>
  );
}
