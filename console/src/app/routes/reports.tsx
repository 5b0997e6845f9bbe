import { serverMessage } from '@storage/web-client/api';
import { Alert, Card, Flex, Result, Skeleton } from 'antd';
import { PageHeader } from '../../components/page-header.tsx';
import { useDashboardMetrics } from '../../features/dashboard/api/get-dashboard-metrics.ts';
import { MetricCards } from '../../features/dashboard/components/metric-cards.tsx';
import { useReportsOverview } from '../../features/reports/api/get-reports-overview.ts';
import {
  AgingReport,
  PaymentsByMethodReport,
  RentRollReport,
  RevenueByChargeTypeReport,
  SalesTaxReport,
} from '../../features/reports/components/ledger-reports.tsx';
import { ReportCharts } from '../../features/reports/components/report-charts.tsx';
import { ReportDownloads } from '../../features/reports/components/report-downloads.tsx';
import { useFacilityScope } from '../../lib/facility-scope.tsx';

export default function ReportsPage() {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  // The Reports screen's four cards come from the dashboard metrics call (spec §7).
  const metrics = useDashboardMetrics(facilityId);
  const report = useReportsOverview(facilityId);

  return (
    <>
      <PageHeader title="Reports" />
      <Flex vertical gap={16}>
        {metrics.isError && <Alert type="error" showIcon title={metrics.error.message} />}
        <MetricCards metrics={metrics.data} loading={metrics.isPending} variant="reports" />
        {report.isPending && (
          <Card>
            <Skeleton active paragraph={{ rows: 8 }} />
          </Card>
        )}
        {report.isError && <Result status="error" title="Could not load the reports" subTitle={serverMessage(report.error)} />}
        {report.isSuccess && <ReportCharts report={report.data} />}
        <PaymentsByMethodReport facilityId={facilityId} />
        <RentRollReport facilityId={facilityId} />
        <AgingReport facilityId={facilityId} />
        <RevenueByChargeTypeReport facilityId={facilityId} />
        <SalesTaxReport facilityId={facilityId} />
        <ReportDownloads facilityId={facilityId} />
      </Flex>
    </>
  );
}
