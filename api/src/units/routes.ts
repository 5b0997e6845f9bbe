import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import { Id } from '@storage/contracts/fields';
import { ChangeUnitStatusRequest, CreateUnitRequest, ListUnitsQuery, type Unit, UnitsFilter } from '@storage/contracts/units';
import { NotFoundError } from '@storage/domain/commands/errors';
import { addUnit, changeUnitStatus } from '@storage/domain/units/commands';
import type { UnitState } from '@storage/domain/units/unit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { parseInput } from '../http/validate.ts';
import { getUnit, listUnitBuildings, listUnits } from './queries.ts';

const UnitParams = z.strictObject({ id: Id });

export async function unitRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);

  app.get('/api/units', async (request, reply) => {
    const query = parseInput(ListUnitsQuery, request.query, 'query');
    const { units, total } = await listUnits(deps.pool, query);
    return reply.header(TOTAL_COUNT_HEADER, String(total)).send(units);
  });

  app.get('/api/units/buildings', async (request) => {
    const filter = parseInput(UnitsFilter, request.query, 'query');
    return listUnitBuildings(deps.pool, filter);
  });

  app.get('/api/units/:id', async (request) => {
    const { id } = parseInput(UnitParams, request.params, 'params');
    const unit = await getUnit(deps.pool, id);
    if (!unit) throw new NotFoundError('Unit not found');
    return unit;
  });

  app.post('/api/units', async (request, reply) => {
    const fields = parseInput(CreateUnitRequest, request.body);
    const result = await addUnit(commandContext(deps, request), fields);
    if (result.position) await deps.afterAppend(result.position);
    return reply.status(201).send(await unitAsShown(result.state));
  });

  app.put('/api/units/:id/status', async (request) => {
    const { id } = parseInput(UnitParams, request.params, 'params');
    const { status, reason } = parseInput(ChangeUnitStatusRequest, request.body);
    const result = await changeUnitStatus(commandContext(deps, request), id, status, reason);
    if (result.position) await deps.afterAppend(result.position);
    return unitAsShown(result.state);
  });

  /** The unit from the read model, with the write side's word on its fields (the read model may still be behind after the bounded wait). */
  async function unitAsShown(state: UnitState): Promise<Unit> {
    if (state.status === 'none') throw new NotFoundError('Unit not found');
    const shown = await getUnit(deps.pool, state.unitId);
    if (shown) return { ...shown, ...state.fields };
    const now = new Date().toISOString();
    return { id: state.unitId, ...state.fields, createdAt: now, updatedAt: now };
  }
}
