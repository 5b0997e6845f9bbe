import { BillingRun, ListBillingRunsQuery } from '@storage/contracts/billing';
import { pageHeaders } from '@storage/contracts/paging';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { page } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { listBillingRuns } from './queries.ts';

/** The billing-run history staff read: what each run of a facility's billing day issued, charged, marked and skipped. */
export async function billingRunRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Billing runs', access: 'staff' });

  app.get(
    '/api/billing-runs',
    {
      schema: {
        summary: 'List billing runs',
        description: 'Newest first; one facility with facilityId. Skipped names each lease the run passed over and why.',
        querystring: ListBillingRunsQuery,
        response: { 200: page('A page of billing runs', BillingRun) },
      },
    },
    async (request, reply) => {
      const { runs, paging } = await listBillingRuns(deps.pool, request.query);
      return reply.headers(pageHeaders(paging)).send(runs);
    },
  );
}
