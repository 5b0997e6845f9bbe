import type { StaffRole } from '@storage/contracts/enums';
import { findStaffById } from '@storage/domain/auth/staff';
import { ForbiddenError } from '@storage/domain/commands/errors';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { DatabasePool } from 'slonik';
import { callerOf } from './caller.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A change a read-only role may still make to its own account: sign in and out, its own password. */
    ownAccount?: boolean;
  }
}

const READ_ONLY_ROLES: readonly StaffRole[] = ['auditor'];
const CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Route config of a change to the caller's own account, which read-only roles may make. */
export const OWN_ACCOUNT = { ownAccount: true } as const;

function changes(route: RouteOptions): boolean {
  return [route.method].flat().some((method) => CHANGING_METHODS.has(method)) && route.config?.ownAccount !== true;
}

/**
 * The one place that keeps read-only roles (auditors) from changing anything: every route with a
 * changing method gets this check when it is registered, so it holds on the route the router
 * matched, whatever the spelling of the URL (percent-encoding, trailing slash...). It runs before
 * validation, idempotency and the handler.
 */
export function registerReadOnlyRoles(app: FastifyInstance, pool: DatabasePool): void {
  async function refuseReadOnly(request: FastifyRequest): Promise<void> {
    if (!CHANGING_METHODS.has(request.method)) return; // a route may take GET and POST alike
    const { staffId } = await callerOf(request);
    if (!staffId) return;
    const staff = await findStaffById(pool, staffId);
    if (staff && READ_ONLY_ROLES.includes(staff.role)) throw new ForbiddenError('Auditors have read-only access');
  }
  app.addHook('onRoute', (route) => {
    if (!changes(route)) return;
    route.preValidation = [refuseReadOnly, ...[route.preValidation ?? []].flat()];
  });
}
