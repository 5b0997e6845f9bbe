import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import { streams } from '@storage/contracts/events';
import { Id } from '@storage/contracts/fields';
import {
  CreateLockRequest,
  ListLocksQuery,
  type Lock,
  type LockHeartbeatAnswer,
  LockHeartbeatRequest,
  type LockUnit,
  UpdateLockRequest,
} from '@storage/contracts/locks';
import { ForbiddenError, NotFoundError } from '@storage/domain/commands/errors';
import { loadAggregate } from '@storage/domain/commands/handle';
import { assignLock, changeLockStatus, installLock, recordLockHeartbeat } from '@storage/domain/locks/commands';
import { facilityOfGatewayKey, getGatewayKey, issueGatewayKey, requireLockAtFacility } from '@storage/domain/locks/gateway-keys';
import type { LockState } from '@storage/domain/locks/lock';
import { unitAggregate } from '@storage/domain/units/unit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { getFacility } from '../facilities/queries.ts';
import { commandContext } from '../http/command-context.ts';
import { parseInput } from '../http/validate.ts';
import { getLock, listLocks } from './queries.ts';

const IdParams = z.strictObject({ id: Id });

/** Staff manage locks and gateway keys with their session; gateways report heartbeats with a facility's key. */
export async function lockRoutes(app: FastifyInstance, deps: AppDeps) {
  await app.register(staffLockRoutes, deps);
  await app.register(gatewayRoutes, deps);
}

async function staffLockRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);

  app.get('/api/locks', async (request, reply) => {
    const query = parseInput(ListLocksQuery, request.query, 'query');
    const { locks, total } = await listLocks(deps.pool, query);
    return reply.header(TOTAL_COUNT_HEADER, String(total)).send(locks);
  });

  app.get('/api/locks/:id', async (request) => {
    const { id } = parseInput(IdParams, request.params, 'params');
    const lock = await getLock(deps.pool, id);
    if (!lock) throw new NotFoundError('Lock not found');
    return lock;
  });

  app.post('/api/locks', async (request, reply) => {
    const { lockId, ...fields } = parseInput(CreateLockRequest, request.body);
    const result = await installLock(commandContext(deps, request), { serial: lockId, ...fields });
    if (result.position) await deps.afterAppend(result.position);
    return reply.status(201).send(await lockAsShown(result.state));
  });

  app.patch('/api/locks/:id', async (request) => {
    const { id } = parseInput(IdParams, request.params, 'params');
    const changes = parseInput(UpdateLockRequest, request.body);
    const ctx = commandContext(deps, request);
    const results = [];
    if (changes.unitId !== undefined) results.push(await assignLock(ctx, id, changes.unitId));
    if (changes.status !== undefined) results.push(await changeLockStatus(ctx, id, changes.status));
    const position = results.findLast((r) => r.position !== null)?.position;
    if (position) await deps.afterAppend(position);
    return lockAsShown(results.at(-1)!.state);
  });

  // 204 while the facility has no key yet: a normal state of a new facility, not an error.
  app.get('/api/facilities/:id/gateway-key', async (request, reply) => {
    const { id } = parseInput(IdParams, request.params, 'params');
    const key = await getGatewayKey(deps.pool, id);
    if (key) return key;
    if (!(await getFacility(deps.pool, id))) throw new NotFoundError('Facility not found');
    return reply.code(204).send();
  });

  // The answer carries the new key: never kept for Idempotency-Key replays.
  app.post('/api/facilities/:id/gateway-key', { config: { idempotent: false } }, async (request, reply) => {
    if (request.staff?.role !== 'owner') throw new ForbiddenError('Only an owner can create or rotate a gateway key');
    const { id } = parseInput(IdParams, request.params, 'params');
    const { issued, position } = await issueGatewayKey(commandContext(deps, request), id);
    if (position) await deps.afterAppend(position);
    return reply.status(201).header('cache-control', 'no-store').send(issued);
  });

  /** The lock from the read model, with the write side's word on what the command just changed. */
  async function lockAsShown(state: LockState): Promise<Lock> {
    if (state.status === 'none') throw new NotFoundError('Lock not found');
    const { serial, ...fields } = state.fields;
    const shown = await getLock(deps.pool, state.lockId);
    const now = new Date().toISOString();
    const base = shown ?? { id: state.lockId, lastSeen: null, createdAt: now, updatedAt: now };
    const unit = shown?.unit?.id === fields.unitId ? shown.unit : await unitOfWriteSide(fields.unitId);
    return { ...base, ...fields, lockId: serial, unit };
  }

  async function unitOfWriteSide(unitId: string | null): Promise<LockUnit | null> {
    if (unitId === null) return null;
    const { state } = await loadAggregate(deps.store, streams.unit(unitId), unitAggregate);
    return state.status === 'current' ? { id: unitId, facilityId: state.fields.facilityId, unitNumber: state.fields.unitNumber } : null;
  }
}

async function gatewayRoutes(app: FastifyInstance, deps: AppDeps) {
  app.post('/api/locks/:id/heartbeat', async (request, reply) => {
    const facilityId = await facilityOfGatewayKey(deps.pool, deps.store, request.headers.authorization);
    if (!facilityId) return reply.status(401).header('www-authenticate', 'Bearer').send({ message: 'Unauthorized' });
    const { id } = parseInput(IdParams, request.params, 'params');
    const heartbeat = parseInput(LockHeartbeatRequest, request.body);
    await requireLockAtFacility(deps.store, id, facilityId);
    const result = await recordLockHeartbeat(commandContext(deps, request), id, heartbeat);
    if (result.position) await deps.afterAppend(result.position);
    if (result.state.status === 'none') throw new NotFoundError('Lock not found');
    const answer: LockHeartbeatAnswer = { id, status: result.state.fields.status, batteryLevel: result.state.fields.batteryLevel };
    return answer;
  });
}
