import { CreateFacilityRequest, Facility, ListFacilitiesQuery, UpdateFacilityRequest } from '@storage/contracts/facilities';
import { pageHeaders } from '@storage/contracts/paging';
import { addFacility, updateFacility } from '@storage/domain/facilities/commands';
import type { FacilityState } from '@storage/domain/facilities/facility';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { json, page } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { getFacility, listFacilities } from './queries.ts';

export async function facilityRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Facilities', access: 'staff' });
  const manageFacilities = { roles: ['owner', 'manager'] } as const;

  app.get(
    '/api/facilities',
    { schema: { summary: 'List facilities', querystring: ListFacilitiesQuery, response: { 200: page('A page of facilities', Facility) } } },
    async (request, reply) => {
      const { facilities, paging } = await listFacilities(deps.pool, request.query);
      return reply.headers(pageHeaders(paging)).send(facilities);
    },
  );

  app.post(
    '/api/facilities',
    { config: manageFacilities, schema: { summary: 'Add a facility', body: CreateFacilityRequest, response: { 201: json('The new facility', Facility) } } },
    async (request, reply) => {
      const result = await addFacility(commandContext(deps, request), request.body);
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(201).send(await facilityAsRead(deps, result.state));
    },
  );

  app.patch(
    '/api/facilities/:id',
    {
      config: manageFacilities,
      schema: {
        summary: 'Change a facility',
        description: 'Changes the fields given (at least one).',
        params: IdParams,
        body: UpdateFacilityRequest,
        response: { 200: json('The facility as changed', Facility) },
      },
    },
    async (request) => {
      const result = await updateFacility(commandContext(deps, request), request.params.id, request.body);
      if (result.position) await deps.afterAppend(result.position);
      return facilityAsRead(deps, result.state);
    },
  );
}

/** The fields as just written (the read model may still be behind); the unit counts, which only the projection derives, as it shows them. */
async function facilityAsRead(deps: AppDeps, state: FacilityState): Promise<Facility> {
  if (state.status === 'none') throw new Error('A saved facility has no state');
  const read = await getFacility(deps.pool, state.facilityId);
  return { ...state.fields, id: state.facilityId, totalUnits: read?.totalUnits ?? 0, occupiedUnits: read?.occupiedUnits ?? 0 };
}
