import type { ReportsOverview } from '@storage/contracts/reports';
import { Card, Flex, Typography } from 'antd';

const NO_FIGURE = '—';

/** Days to fill a unit and payment success, over the report's twelve months; '—' where the data has no figure. */
export function ReportFigures({ report }: { report: ReportsOverview }) {
  const figures = [
    {
      title: 'Average Days to Fill',
      value: report.daysToFill === null ? NO_FIGURE : `${report.daysToFill.toFixed(1)} days`,
      caption: `Days a unit stood for rent before its lease, over ${report.unitsFilled} ${report.unitsFilled === 1 ? 'lease' : 'leases'} in 12 months`,
    },
    {
      title: 'Payment Success Rate',
      value: report.paymentSuccessRate === null ? NO_FIGURE : `${report.paymentSuccessRate.toFixed(1)}%`,
      caption: `Paid, of the ${report.invoicesDue} ${report.invoicesDue === 1 ? 'invoice' : 'invoices'} due in 12 months`,
    },
  ];
  return (
    <Flex vertical gap={16} style={{ height: '100%' }}>
      {figures.map((figure) => (
        <Card key={figure.title} data-testid="report-figure" style={{ flex: 1 }}>
          <Typography.Text type="secondary">{figure.title}</Typography.Text>
          <div className="metric-value">{figure.value}</div>
          <Typography.Text type="secondary" className="metric-caption">
            {figure.caption}
          </Typography.Text>
        </Card>
      ))}
    </Flex>
  );
}
