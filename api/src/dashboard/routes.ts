import { DashboardMetricsQuery, RecentCustomersQuery } from '@storage/contracts/dashboard';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { parseInput } from '../http/validate.ts';
import { isoDay } from './month-over-month.ts';
import { dashboardMetrics, recentCustomers } from './queries.ts';

export async function dashboardRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);

  app.get('/api/dashboard/metrics', async (request, reply) => {
    const { facilityId, asOf } = parseInput(DashboardMetricsQuery, request.query, 'query');
    const metrics = await dashboardMetrics(deps.pool, facilityId, asOf ?? isoDay(new Date()));
    return reply.header('cache-control', 'no-cache, no-store, must-revalidate').header('pragma', 'no-cache').header('expires', '0').send(metrics);
  });

  app.get('/api/dashboard/recent-customers', async (request) => {
    const filter = parseInput(RecentCustomersQuery, request.query, 'query');
    return recentCustomers(deps.pool, filter);
  });
}
