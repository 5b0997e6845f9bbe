import { DashboardMetrics, DashboardMetricsQuery, RecentCustomer, RecentCustomersQuery } from '@storage/contracts/dashboard';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { reportToday } from '../reports/ledger-reports.ts';
import { dashboardMetrics, recentCustomers } from './queries.ts';

export async function dashboardRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Dashboard', access: 'staff' });

  app.get(
    '/api/dashboard/metrics',
    {
      schema: {
        summary: 'Dashboard metrics',
        description: 'The figures of today, or as they stood at the end of `asOf`, with their change since last month.',
        querystring: DashboardMetricsQuery,
        response: { 200: json('The metrics', DashboardMetrics) },
      },
    },
    async (request, reply) => {
      const { facilityId, asOf } = request.query;
      // Today is the facility's own day (its time zone; UTC for all facilities), as the ledger's dates are.
      const metrics = await dashboardMetrics(deps.pool, facilityId, asOf ?? (await reportToday(deps.pool, facilityId, deps.clock.now())));
      return reply.header('cache-control', 'no-cache, no-store, must-revalidate').header('pragma', 'no-cache').header('expires', '0').send(metrics);
    },
  );

  app.get(
    '/api/dashboard/recent-customers',
    {
      schema: {
        summary: 'Recent customers',
        description: 'The newest customers (at most 5), with the units they rent.',
        querystring: RecentCustomersQuery,
        response: { 200: json('The customers', RecentCustomer.array()) },
      },
    },
    async (request) => recentCustomers(deps.pool, request.query),
  );
}
