import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import { CreateFacilityRequest, type Facility, ListFacilitiesQuery, UpdateFacilityRequest } from '@storage/contracts/facilities';
import { Id } from '@storage/contracts/fields';
import { addFacility, updateFacility } from '@storage/domain/facilities/commands';
import type { FacilityState } from '@storage/domain/facilities/facility';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { requireRole } from '../http/roles.ts';
import { parseInput } from '../http/validate.ts';
import { getFacility, listFacilities } from './queries.ts';

const FacilityParams = z.strictObject({ id: Id });

export async function facilityRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);
  const manageFacilities = { preHandler: requireRole('owner', 'manager') };

  app.get('/api/facilities', async (request, reply) => {
    const query = parseInput(ListFacilitiesQuery, request.query, 'query');
    const { facilities, total } = await listFacilities(deps.pool, query);
    return reply.header(TOTAL_COUNT_HEADER, String(total)).send(facilities);
  });

  app.post('/api/facilities', manageFacilities, async (request, reply) => {
    const fields = parseInput(CreateFacilityRequest, request.body);
    const result = await addFacility(commandContext(deps, request), fields);
    if (result.position) await deps.afterAppend(result.position);
    return reply.status(201).send(await facilityAsRead(deps, result.state));
  });

  app.patch('/api/facilities/:id', manageFacilities, async (request) => {
    const { id } = parseInput(FacilityParams, request.params, 'params');
    const changes = parseInput(UpdateFacilityRequest, request.body);
    const result = await updateFacility(commandContext(deps, request), id, changes);
    if (result.position) await deps.afterAppend(result.position);
    return facilityAsRead(deps, result.state);
  });
}

/** The fields as just written (the read model may still be behind); the unit counts, which only the projection derives, as it shows them. */
async function facilityAsRead(deps: AppDeps, state: FacilityState): Promise<Facility> {
  if (state.status === 'none') throw new Error('A saved facility has no state');
  const read = await getFacility(deps.pool, state.facilityId);
  return { ...state.fields, id: state.facilityId, totalUnits: read?.totalUnits ?? 0, occupiedUnits: read?.occupiedUnits ?? 0 };
}
