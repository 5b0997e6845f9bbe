import { pageHeaders } from '@storage/contracts/paging';
import { MoveInQuote, MoveInQuoteQuery } from '@storage/contracts/quotes';
import { ChangeUnitStatusRequest, CreateUnitRequest, ListUnitsQuery, SetUnitFeaturesRequest, Unit, UnitBuilding, UnitsFilter } from '@storage/contracts/units';
import { quoteUnitMoveIn } from '@storage/domain/billing/quote';
import { NotFoundError } from '@storage/domain/commands/errors';
import { addUnit, changeUnitStatus, setUnitFeatures } from '@storage/domain/units/commands';
import type { UnitState } from '@storage/domain/units/unit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { errorAnswer, json, page } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { getUnit, listUnitBuildings, listUnits } from './queries.ts';

export async function unitRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Units', access: 'staff' });

  app.get(
    '/api/units',
    { schema: { summary: 'List units', querystring: ListUnitsQuery, response: { 200: page('A page of units', Unit) } } },
    async (request, reply) => {
      const { units, paging } = await listUnits(deps.pool, request.query);
      return reply.headers(pageHeaders(paging)).send(units);
    },
  );

  app.get(
    '/api/units/buildings',
    {
      schema: {
        summary: 'List buildings',
        description: 'The buildings of the units that match, with their unit counts.',
        querystring: UnitsFilter,
        response: { 200: json('The buildings', z.array(UnitBuilding)) },
      },
    },
    async (request) => listUnitBuildings(deps.pool, request.query),
  );

  app.get('/api/units/:id', { schema: { summary: 'Get a unit', params: IdParams, response: { 200: json('The unit', Unit) } } }, async (request) => {
    const unit = await getUnit(deps.pool, request.params.id);
    if (!unit) throw new NotFoundError('Unit not found');
    return unit;
  });

  app.get(
    '/api/units/:id/move-in-quote',
    {
      schema: {
        summary: 'Quote a move-in',
        description:
          "What a lease of these terms would be billed if it started now, by the facility's billing settings and today (in its time zone): the invoices a Move In issues at once (the move-in invoice, and on a backdated start the rent already due), their total, and the next invoice. The rate is the unit's unless given; no deposit unless given. Read from the unit's and the settings' streams.",
        params: IdParams,
        querystring: MoveInQuoteQuery,
        response: { 200: json('The quote', MoveInQuote), 404: errorAnswer('No such unit') },
      },
    },
    async (request) => quoteUnitMoveIn(deps.store, request.params.id, request.query, deps.clock.now()),
  );

  app.post(
    '/api/units',
    { schema: { summary: 'Add a unit', body: CreateUnitRequest, response: { 201: json('The new unit', Unit) } } },
    async (request, reply) => {
      const result = await addUnit(commandContext(deps, request), request.body);
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(201).send(await unitAsShown(result.state));
    },
  );

  app.put(
    '/api/units/:id/status',
    {
      schema: {
        summary: "Change a unit's status",
        description: "Sets the unit's status; a reason may go with the change.",
        params: IdParams,
        body: ChangeUnitStatusRequest,
        response: { 200: json('The unit as changed', Unit) },
      },
    },
    async (request) => {
      const { status, reason } = request.body;
      const result = await changeUnitStatus(commandContext(deps, request), request.params.id, status, reason);
      if (result.position) await deps.afterAppend(result.position);
      return unitAsShown(result.state);
    },
  );

  app.put(
    '/api/units/:id/features',
    {
      schema: {
        summary: 'Set what a unit offers',
        description:
          "Climate control, drive-up access, the floor (1 is the ground floor) and the lock type, all of them at once, replacing what was set. The public unit list shows these as the unit's badges.",
        params: IdParams,
        body: SetUnitFeaturesRequest,
        response: { 200: json('The unit as changed', Unit) },
      },
    },
    async (request) => {
      const result = await setUnitFeatures(commandContext(deps, request), request.params.id, request.body);
      if (result.position) await deps.afterAppend(result.position);
      return unitAsShown(result.state);
    },
  );

  /** The unit from the read model, with the write side's word on its fields (the read model may still be behind after the bounded wait). */
  async function unitAsShown(state: UnitState): Promise<Unit> {
    if (state.status === 'none') throw new NotFoundError('Unit not found');
    const shown = await getUnit(deps.pool, state.unitId);
    if (shown) return { ...shown, ...state.fields };
    const now = new Date().toISOString();
    return { id: state.unitId, ...state.fields, createdAt: now, updatedAt: now };
  }
}
