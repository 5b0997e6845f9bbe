import { ActivitiesFilter, ListActivitiesQuery } from '@storage/contracts/activities';
import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { parseInput } from '../http/validate.ts';
import { countActivitiesByTab, listActivities } from './queries.ts';

export async function activityRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);

  app.get('/api/activities', async (request, reply) => {
    const query = parseInput(ListActivitiesQuery, request.query, 'query');
    const { activities, total } = await listActivities(deps.pool, query);
    return reply.header(TOTAL_COUNT_HEADER, String(total)).send(activities);
  });

  app.get('/api/activities/counts', async (request) => {
    const filter = parseInput(ActivitiesFilter, request.query, 'query');
    return countActivitiesByTab(deps.pool, filter);
  });
}
