import { AccessAttemptsAnswer, AccessAttemptsRequest, GateCode, MAX_ACCESS_ATTEMPTS_BODY_BYTES } from '@storage/contracts/access';
import type { StaffRole } from '@storage/contracts/enums';
import { recordAccessAttempts } from '@storage/domain/access/attempts';
import { type GateCodeState, rotateLeaseGateCode } from '@storage/domain/access/gate-codes';
import { NotFoundError } from '@storage/domain/commands/errors';
import { requireLockAtFacility } from '@storage/domain/locks/gateway-keys';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { errorAnswer, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { getGateCode, listGateCodes } from './queries.ts';

/** Staff see and rotate gate codes; a facility's gateway reports access attempts with its key. */
export async function accessRoutes(app: FastifyInstance, deps: AppDeps) {
  await app.register(staffAccessRoutes, deps);
  await app.register(gatewayAccessRoutes, deps);
}

/**
 * The roles that work the desk and hand renters their codes. A code opens the gate, so a role
 * that only reviews (auditors, and any role added later until it is listed here) sees that it
 * exists and its status, never the code itself.
 */
const SEES_GATE_CODES: readonly StaffRole[] = ['owner', 'manager', 'clerk'];

async function staffAccessRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Access', access: 'staff' });

  app.get(
    '/api/customers/:id/gate-codes',
    {
      schema: {
        summary: "A renter's gate codes",
        description:
          'The gate code of each of their leases, and whether it opens the gate (suspended: by a lockout or the move-out). Auditors see that each code exists and its status, with `code` null.',
        params: IdParams,
        response: { 200: json('The gate codes', z.array(GateCode)) },
      },
    },
    async (request) => {
      const codes = await listGateCodes(deps.pool, deps.store, request.params.id);
      const role = request.staff?.role;
      return role && SEES_GATE_CODES.includes(role) ? codes : codes.map((code) => ({ ...code, code: null }));
    },
  );

  // The answer carries the new code: never kept for Idempotency-Key replays.
  app.post(
    '/api/leases/:id/gate-code/rotate',
    {
      config: { idempotent: false, roles: ['owner', 'manager', 'clerk'] },
      schema: {
        summary: "Rotate a lease's gate code",
        description:
          'Gives the lease a new gate code (the old one stops opening anything). A suspended code stays suspended. A lease that ended keeps its code.',
        params: IdParams,
        response: {
          200: json('The new code', GateCode),
          404: errorAnswer('The lease has no gate code'),
          409: errorAnswer('The lease has ended'),
        },
      },
    },
    async (request, reply) => {
      const leaseId = request.params.id;
      const result = await rotateLeaseGateCode(commandContext(deps, request), leaseId);
      if (result.position) await deps.afterAppend(result.position);
      const shown = await getGateCode(deps.pool, deps.store, leaseId);
      reply.header('cache-control', 'no-store');
      return shown && result.state.status === 'assigned' && shown.code === result.state.code ? shown : fromWriteSide(leaseId, result.state);
    },
  );

  /** The code as the write side knows it, while the read model is still behind. */
  async function fromWriteSide(leaseId: string, state: GateCodeState): Promise<GateCode> {
    if (state.status === 'none') throw new NotFoundError('This lease has no gate code');
    const shown = await getGateCode(deps.pool, deps.store, leaseId);
    const now = new Date().toISOString();
    return {
      leaseId,
      customerId: state.customerId,
      unitId: shown?.unitId ?? null,
      unitNumber: shown?.unitNumber ?? null,
      code: state.code,
      status: state.suspended === null ? 'active' : 'suspended',
      suspendedReason: state.suspended,
      assignedAt: shown?.assignedAt ?? now,
      updatedAt: now,
    };
  }
}

async function gatewayAccessRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Access', access: 'gateway' });

  app.post(
    '/api/gateway/access-attempts',
    {
      // The documented batch of 500 attempts does not fit the API's 64 KiB: this route alone takes more.
      bodyLimit: MAX_ACCESS_ATTEMPTS_BODY_BYTES,
      schema: {
        summary: 'Report access attempts',
        description:
          "A facility's lock gateway reports who tried a gate code or a lock, whether it was granted and why. The code finds the lease and renter it belongs to and is never stored. An attempt sent again with the same id is recorded once.",
        body: AccessAttemptsRequest,
        response: {
          200: json('How many attempts were recorded (repeats are not)', AccessAttemptsAnswer),
          403: errorAnswer("A lock is not on a unit of the key's facility"),
        },
      },
    },
    async (request) => {
      const facilityId = request.gatewayFacilityId!;
      const { attempts } = request.body;
      for (const lockId of new Set(attempts.flatMap((a) => (a.lockId ? [a.lockId] : [])))) await requireLockAtFacility(deps.store, lockId, facilityId);
      const { recorded, position } = await recordAccessAttempts(commandContext(deps, request), deps.pool, facilityId, attempts, request.id);
      if (position) await deps.afterAppend(position);
      return { recorded };
    },
  );
}
