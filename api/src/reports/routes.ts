import { toCsv } from '@storage/contracts/csv';
import { type ReportKind, ReportsOverview, ReportsQuery, reportDownloads } from '@storage/contracts/reports';
import type { FastifyInstance } from 'fastify';
import type { DatabasePool } from 'slonik';
import { isoDay } from '../dashboard/month-over-month.ts';
import type { AppDeps } from '../deps.ts';
import { file, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { openInvoices, rentRoll, reportsOverview } from './queries.ts';

type Csv = { header: string[]; rows: Array<Array<string | number | null>> };

const csvReports: Record<ReportKind, (pool: DatabasePool, facilityId: string | undefined, today: string) => Promise<Csv>> = {
  'rent-roll': async (pool, facilityId) => ({
    header: ['Facility', 'Building', 'Unit', 'Size', 'Customer', 'Email', 'Phone', 'Lease Start', 'Monthly Rate', 'Deposit', 'Customer Balance'],
    rows: (await rentRoll(pool, facilityId)).map((r) => [
      r.facility,
      r.building,
      r.unit_number,
      r.size,
      `${r.first_name} ${r.last_name}`,
      r.email,
      r.phone,
      r.start_date,
      r.monthly_rate,
      r.deposit_amount,
      r.customer_balance,
    ]),
  }),
  aging: async (pool, facilityId, today) => ({
    header: ['Invoice #', 'Customer', 'Email', 'Facility', 'Due Date', 'Days Past Due', 'Aging Bucket', 'Status', 'Amount'],
    rows: (await openInvoices(pool, facilityId, today)).map((r) => [
      r.invoice_number,
      `${r.first_name} ${r.last_name}`,
      r.email,
      r.facility,
      r.due_date,
      r.days_past_due,
      r.bucket,
      r.status,
      r.amount,
    ]),
  }),
  occupancy: async (pool, facilityId, today) => ({
    header: ['Month', 'Total Units', 'Occupied Units', 'Occupancy Rate (%)', 'Move-ins', 'Move-outs'],
    rows: (await reportsOverview(pool, facilityId, today)).occupancyByMonth.map((m) => [
      m.month,
      m.totalUnits,
      m.occupiedUnits,
      m.occupancyRate === null ? null : m.occupancyRate.toFixed(1),
      m.moveIns,
      m.moveOuts,
    ]),
  }),
  revenue: async (pool, facilityId, today) => ({
    header: ['Month', 'Payments', 'Revenue'],
    rows: (await reportsOverview(pool, facilityId, today)).revenueByMonth.map((m) => [m.month, m.payments, m.revenue]),
  }),
};

export async function reportRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Reports', access: 'staff' });

  app.get(
    '/api/reports/overview',
    {
      schema: {
        summary: 'Reports overview',
        description: 'Revenue, occupancy, receivables aging, days to fill and payment success over the last 12 months.',
        querystring: ReportsQuery,
        response: { 200: json('The figures', ReportsOverview) },
      },
    },
    async (request) => reportsOverview(deps.pool, request.query.facilityId, isoDay(new Date())),
  );

  for (const { kind, title } of reportDownloads) {
    const build = csvReports[kind];
    app.get(
      `/api/reports/${kind}.csv`,
      {
        schema: {
          summary: `Download the ${title} report`,
          querystring: ReportsQuery,
          response: { 200: file(`The ${title} report as of today, as CSV`, 'text/csv') },
        },
      },
      async (request, reply) => {
        const today = isoDay(new Date());
        const { header, rows } = await build(deps.pool, request.query.facilityId, today);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${kind}-${today}.csv"`)
          .header('cache-control', 'no-store')
          .send(toCsv(header, rows));
      },
    );
  }
}
