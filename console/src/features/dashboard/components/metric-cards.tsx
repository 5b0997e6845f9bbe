import { DollarOutlined, HomeOutlined, TeamOutlined, WarningOutlined } from '@ant-design/icons';
import type { DashboardMetrics } from '@storage/contracts/dashboard';
import { Card, Col, Flex, Row, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatDollars, formatPercent } from '../../../lib/format.ts';
import { changeCaption, newCustomersCaption, pointsCaption } from '../month-over-month.ts';

const NO_FIGURE = '—';

/** The dashboard's names for the four figures, and the Reports screen's. */
const titles = {
  dashboard: ['Total Revenue', 'Occupancy Rate', 'Active Customers', 'Outstanding Balance'],
  reports: ['Monthly Revenue', 'Occupancy Rate', 'Active Customers', 'Outstanding'],
} as const;

type MetricCardsProps = {
  metrics: DashboardMetrics | undefined;
  loading: boolean;
  variant: keyof typeof titles;
};

/** Revenue, occupancy rate, active customers and outstanding balance, each captioned with its change since last month. */
export function MetricCards({ metrics, loading, variant }: MetricCardsProps) {
  const [revenue, occupancy, customers, outstanding] = titles[variant];
  const change = metrics?.monthOverMonth;
  const cards = [
    {
      title: revenue,
      icon: <DollarOutlined />,
      value: metrics && formatDollars(metrics.totalRevenue),
      caption: change && changeCaption(change.revenuePercent),
    },
    {
      title: occupancy,
      icon: <HomeOutlined />,
      value: metrics && formatPercent(metrics.occupancyRate),
      caption: change && pointsCaption(change.occupancyPoints),
    },
    {
      title: customers,
      icon: <TeamOutlined />,
      value: metrics && String(metrics.activeCustomers),
      caption: change && newCustomersCaption(change.newCustomers),
    },
    {
      title: outstanding,
      icon: <WarningOutlined />,
      value: metrics && formatDollars(metrics.outstandingBalance),
      caption: change && changeCaption(change.outstandingPercent),
    },
  ];
  return (
    <Row gutter={[16, 16]}>
      {cards.map((card) => (
        <Col key={card.title} xs={24} sm={12} xl={6}>
          <MetricCard {...card} loading={loading} />
        </Col>
      ))}
    </Row>
  );
}

type MetricCardProps = { title: string; icon: ReactNode; value: string | undefined; caption: string | undefined; loading: boolean };

function MetricCard({ title, icon, value, caption, loading }: MetricCardProps) {
  return (
    <Card className="stretch-card" data-testid="metric-card">
      <Flex justify="space-between" align="flex-start" gap={8}>
        <Typography.Text type="secondary">{title}</Typography.Text>
        <span className="metric-icon" aria-hidden>
          {icon}
        </span>
      </Flex>
      {loading ? (
        <Skeleton active title={false} paragraph={{ rows: 2 }} />
      ) : (
        <>
          <div className="metric-value">{value ?? NO_FIGURE}</div>
          <Typography.Text type="secondary" className="metric-caption">
            {caption ?? NO_FIGURE}
          </Typography.Text>
        </>
      )}
    </Card>
  );
}
