import { agingBucketLabels, type ReportsOverview } from '@storage/contracts/reports';
import { Card, Col, Row } from 'antd';
import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDollars, formatPercent } from '../../../lib/format.ts';
import { ReportFigures } from './report-figures.tsx';

const CHART_STYLE = { width: '100%', height: 260 };
const AXIS_TICK = { fontSize: 12, fill: '#64748b' };
const BRAND = '#1f5eff';
// From the freshest receivables to the oldest.
const AGING_COLORS = ['#3b82f6', '#22c55e', '#eab308', '#f97316', '#ef4444'];
// Charts are drawn at once: an animated chart is half drawn for whoever looks early.
const DRAWN_AT_ONCE = { isAnimationActive: false } as const;

/** 'YYYY-MM' → 'Jun 25'. */
function monthLabel(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });
}

const wholeDollars = (value: number) => `$${Math.round(value).toLocaleString('en-US')}`;

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card title={title} className="stretch-card">
      <div role="img" aria-label={title}>
        {children}
      </div>
    </Card>
  );
}

/** The twelve-month charts and figures of the Reports screen. */
export function ReportCharts({ report }: { report: ReportsOverview }) {
  // Chart heights need numbers; the tooltips show the exact amounts.
  const revenue = report.revenueByMonth.map((m) => ({ label: monthLabel(m.month), value: Number(m.revenue), exact: m.revenue }));
  const occupancy = report.occupancyByMonth.map((m) => ({ label: monthLabel(m.month), rate: m.occupancyRate }));
  const aging = report.agingReceivables.map((b) => ({ label: agingBucketLabels[b.bucket], value: Number(b.amount), exact: b.amount, invoices: b.invoices }));

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={12}>
        <ChartCard title="Revenue by Month">
          <BarChart responsive style={CHART_STYLE} data={revenue} margin={{ left: 8, right: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={AXIS_TICK} interval="preserveStartEnd" minTickGap={16} />
            <YAxis tick={AXIS_TICK} tickFormatter={wholeDollars} width={64} />
            <Tooltip formatter={(_value, _name, item) => [formatDollars(item.payload.exact), 'Revenue']} />
            <Bar dataKey="value" fill={BRAND} radius={[4, 4, 0, 0]} {...DRAWN_AT_ONCE} />
          </BarChart>
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <ChartCard title="Occupancy Trend">
          <LineChart responsive style={CHART_STYLE} data={occupancy} margin={{ left: 8, right: 28 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={AXIS_TICK} interval="preserveStartEnd" minTickGap={16} />
            <YAxis tick={AXIS_TICK} domain={[0, 100]} tickFormatter={(value: number) => `${value}%`} width={48} />
            <Tooltip formatter={(value) => [typeof value === 'number' ? formatPercent(value) : '—', 'Occupancy']} />
            <Line type="monotone" dataKey="rate" stroke={BRAND} strokeWidth={2} dot={{ r: 3 }} {...DRAWN_AT_ONCE} />
          </LineChart>
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <ChartCard title="Aging Receivables">
          <BarChart responsive style={CHART_STYLE} data={aging} margin={{ left: 8, right: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={AXIS_TICK} />
            <YAxis tick={AXIS_TICK} tickFormatter={wholeDollars} width={64} />
            <Tooltip formatter={(_value, _name, item) => [`${formatDollars(item.payload.exact)} (${item.payload.invoices} invoices)`, 'Outstanding']} />
            <Bar dataKey="value" radius={[4, 4, 0, 0]} {...DRAWN_AT_ONCE}>
              {aging.map((bucket, index) => (
                <Cell key={bucket.label} fill={AGING_COLORS[index]} />
              ))}
            </Bar>
          </BarChart>
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <ReportFigures report={report} />
      </Col>
    </Row>
  );
}
