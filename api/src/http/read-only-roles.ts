import type { StaffRole } from '@storage/contracts/enums';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabasePool } from 'slonik';
import { findStaffById } from '../auth/staff.ts';
import { ForbiddenError } from '../commands/errors.ts';
import { callerOf } from './caller.ts';

const READ_ONLY_ROLES: readonly StaffRole[] = ['auditor'];
const CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What a read-only account may still do for itself: sign in and out, change its own password. */
const OWN_ACCOUNT_PATHS = new Set(['/api/auth/login', '/api/auth/logout', '/api/logout', '/api/auth/password']);

function isChange(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0]!.replace(/\/+$/, '');
  return CHANGING_METHODS.has(request.method) && path.startsWith('/api/') && !OWN_ACCOUNT_PATHS.has(path);
}

/** The one place that keeps read-only roles (auditors) from changing anything, whatever the route. */
export function registerReadOnlyRoles(app: FastifyInstance, pool: DatabasePool): void {
  app.addHook('onRequest', async (request) => {
    if (!isChange(request)) return;
    const { staffId } = await callerOf(request);
    if (!staffId) return;
    const staff = await findStaffById(pool, staffId);
    if (staff && READ_ONLY_ROLES.includes(staff.role)) throw new ForbiddenError('Auditors have read-only access');
  });
}
