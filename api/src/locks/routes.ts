import { MAX_GATEWAY_CHANGES } from '@storage/contracts/access';
import { streams } from '@storage/contracts/events';
import {
  CreateLockRequest,
  GatewayKey,
  IssuedGatewayKey,
  ListLocksQuery,
  LOW_BATTERY_LEVEL,
  Lock,
  LockHeartbeatAnswer,
  LockHeartbeatRequest,
  type LockUnit,
  OFFLINE_AFTER_HOURS,
  UpdateLockRequest,
} from '@storage/contracts/locks';
import { pageHeaders } from '@storage/contracts/paging';
import { NotFoundError } from '@storage/domain/commands/errors';
import { loadAggregate } from '@storage/domain/commands/handle';
import { assignLock, changeLockStatus, installLock, recordLockHeartbeat, reportLockState } from '@storage/domain/locks/commands';
import { getGatewayKey, issueGatewayKey, requireLockAtFacility } from '@storage/domain/locks/gateway-keys';
import type { LockState } from '@storage/domain/locks/lock';
import { unitAggregate } from '@storage/domain/units/unit';
import type { FastifyInstance } from 'fastify';
import { gatewayChangesAfter, gatewaySequence } from '../access/queries.ts';
import type { AppDeps } from '../deps.ts';
import { getFacility } from '../facilities/queries.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { empty, errorAnswer, json, page } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { getLock, listLocks } from './queries.ts';

/** Staff manage locks and gateway keys with their session; gateways report heartbeats with a facility's key. */
export async function lockRoutes(app: FastifyInstance, deps: AppDeps) {
  await app.register(staffLockRoutes, deps);
  await app.register(gatewayRoutes, deps);
}

async function staffLockRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Locks', access: 'staff' });

  app.get(
    '/api/locks',
    {
      schema: {
        summary: 'List locks',
        description: `\`exceptions\` narrows the list to locks with any of: \`lowBattery\` (battery under ${LOW_BATTERY_LEVEL}%), \`offline\` (not seen for ${OFFLINE_AFTER_HOURS} hours, or never), \`notApplied\` (the desired state differs from the state the lock last reported), e.g. \`exceptions=lowBattery,offline\`.`,
        querystring: ListLocksQuery,
        response: { 200: page('A page of locks', Lock) },
      },
    },
    async (request, reply) => {
      const { locks, paging } = await listLocks(deps.pool, request.query, deps.clock.now());
      return reply.headers(pageHeaders(paging)).send(locks);
    },
  );

  app.get('/api/locks/:id', { schema: { summary: 'Get a lock', params: IdParams, response: { 200: json('The lock', Lock) } } }, async (request) => {
    const lock = await getLock(deps.pool, request.params.id);
    if (!lock) throw new NotFoundError('Lock not found');
    return lock;
  });

  app.post(
    '/api/locks',
    { schema: { summary: 'Install a lock', body: CreateLockRequest, response: { 201: json('The new lock', Lock) } } },
    async (request, reply) => {
      const { lockId, ...fields } = request.body;
      const result = await installLock(commandContext(deps, request), { serial: lockId, ...fields });
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(201).send(await lockAsShown(result.state));
    },
  );

  app.patch(
    '/api/locks/:id',
    {
      schema: {
        summary: 'Change a lock',
        description: 'Assigns the lock to a unit (or none) and/or changes its status.',
        params: IdParams,
        body: UpdateLockRequest,
        response: { 200: json('The lock as changed', Lock) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const changes = request.body;
      const ctx = commandContext(deps, request);
      const results = [];
      if (changes.unitId !== undefined) results.push(await assignLock(ctx, id, changes.unitId));
      if (changes.status !== undefined) results.push(await changeLockStatus(ctx, id, changes.status));
      const position = results.findLast((r) => r.position !== null)?.position;
      if (position) await deps.afterAppend(position);
      return lockAsShown(results.at(-1)!.state);
    },
  );

  // 204 while the facility has no key yet: a normal state of a new facility, not an error.
  app.get(
    '/api/facilities/:id/gateway-key',
    {
      schema: {
        summary: "A facility's gateway key",
        description: 'What identifies the current key (never the key itself).',
        params: IdParams,
        response: { 200: json('The current key', GatewayKey), 204: empty('The facility has no key yet') },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const key = await getGatewayKey(deps.pool, id);
      if (key) return key;
      if (!(await getFacility(deps.pool, id))) throw new NotFoundError('Facility not found');
      return reply.code(204).send();
    },
  );

  // The answer carries the new key: never kept for Idempotency-Key replays.
  app.post(
    '/api/facilities/:id/gateway-key',
    {
      config: { idempotent: false, roles: ['owner'] },
      schema: {
        summary: 'Issue a gateway key',
        description: "Creates the facility's lock-gateway key, or rotates it (the old one stops working). The answer is the only time the key is shown.",
        params: IdParams,
        response: { 201: json('The new key', IssuedGatewayKey) },
      },
    },
    async (request, reply) => {
      const { issued, position } = await issueGatewayKey(commandContext(deps, request), request.params.id);
      if (position) await deps.afterAppend(position);
      return reply.status(201).header('cache-control', 'no-store').send(issued);
    },
  );

  /** The lock from the read model, with the write side's word on what the command just changed. */
  async function lockAsShown(state: LockState): Promise<Lock> {
    if (state.status === 'none') throw new NotFoundError('Lock not found');
    // The battery and firmware come with heartbeats, on a stream of their own: the lock's stream
    // holds them as installed, so the read model's (the last heartbeat's) are the ones to show.
    const { serial, batteryLevel, firmwareVersion, ...fields } = state.fields;
    const shown = await getLock(deps.pool, state.lockId);
    const now = new Date().toISOString();
    const base = shown ?? {
      id: state.lockId,
      batteryLevel,
      firmwareVersion,
      lastSeen: null,
      createdAt: now,
      updatedAt: now,
      reportedAt: null,
      differsSince: null,
    };
    const unit = shown?.unit?.id === fields.unitId ? shown.unit : await unitOfWriteSide(fields.unitId);
    return { ...base, ...fields, lockId: serial, unit, desiredState: state.desired, reportedState: state.reported };
  }

  async function unitOfWriteSide(unitId: string | null): Promise<LockUnit | null> {
    if (unitId === null) return null;
    const { state } = await loadAggregate(deps.store, streams.unit(unitId), unitAggregate);
    return state.status === 'current' ? { id: unitId, facilityId: state.fields.facilityId, unitNumber: state.fields.unitNumber } : null;
  }
}

async function gatewayRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Locks', access: 'gateway' });

  app.post(
    '/api/locks/:id/heartbeat',
    {
      schema: {
        summary: 'Report a heartbeat',
        description:
          "A lock gateway reports a lock's battery level and, optionally, the state it applied (`reported`) and the last change it applied (`ack`); the lock must be at the facility the key belongs to. The answer says what this lock should be (`desired`), the facility's newest change number (`sequence`) and, when `ack` was sent, every change of the facility after it (lock desired states and gate codes, oldest first, at most 500: `more` says more are waiting). Send `ack: 0` once to learn everything.",
        params: IdParams,
        body: LockHeartbeatRequest,
        response: {
          200: json('The lock as recorded', LockHeartbeatAnswer),
          403: errorAnswer("The lock is not on a unit of the key's facility"),
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      const facilityId = request.gatewayFacilityId!;
      const { batteryLevel, firmwareVersion, ack, reported } = request.body;
      await requireLockAtFacility(deps.store, id, facilityId);
      const ctx = commandContext(deps, request);
      const heartbeat = await recordLockHeartbeat(ctx, id, { batteryLevel, firmwareVersion });
      const reporting = reported === undefined ? null : await reportLockState(ctx, id, reported);
      const position = reporting?.position ?? heartbeat.position;
      if (position) await deps.afterAppend(position);
      // The lock's decisions as last read (the report is read after the heartbeat); the battery as it reported now.
      const result = reporting ?? heartbeat;
      if (result.state.status === 'none') throw new NotFoundError('Lock not found');
      const answer: LockHeartbeatAnswer = { id, status: result.state.fields.status, batteryLevel };
      // An old gateway (neither ack nor reported) is answered as before; one that speaks of states learns them.
      if (ack !== undefined || reported !== undefined) {
        answer.desired = result.state.desired;
        answer.sequence = await gatewaySequence(deps.pool, facilityId);
      }
      if (ack !== undefined) {
        const changes = await gatewayChangesAfter(deps.pool, deps.store, facilityId, ack, MAX_GATEWAY_CHANGES + 1);
        answer.more = changes.length > MAX_GATEWAY_CHANGES;
        answer.changes = changes.slice(0, MAX_GATEWAY_CHANGES);
      }
      return answer;
    },
  );
}
