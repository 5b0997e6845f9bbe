import { ActivitiesFilter, Activity, ActivityTabCounts, ListActivitiesQuery } from '@storage/contracts/activities';
import { pageHeaders } from '@storage/contracts/paging';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { json, page } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { countActivitiesByTab, listActivities } from './queries.ts';

export async function activityRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Activities', access: 'staff' });

  app.get(
    '/api/activities',
    {
      schema: {
        summary: 'List activities',
        description: 'The activity feed, newest first.',
        querystring: ListActivitiesQuery,
        response: { 200: page('A page of activities', Activity) },
      },
    },
    async (request, reply) => {
      const { activities, info } = await listActivities(deps.pool, request.query);
      return reply.headers(pageHeaders(info)).send(activities);
    },
  );

  app.get(
    '/api/activities/counts',
    {
      schema: {
        summary: 'Count activities per tab',
        querystring: ActivitiesFilter,
        response: { 200: json('How many of the filtered feed each tab holds', ActivityTabCounts) },
      },
    },
    async (request) => countActivitiesByTab(deps.pool, request.query),
  );
}
