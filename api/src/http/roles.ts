import type { StaffRole } from '@storage/contracts/enums';
import { ForbiddenError } from '@storage/domain/commands/errors';
import type { FastifyRequest } from 'fastify';

/** preHandler for a route only some roles may use; runs after `requireStaff`, so the staff member is known (else 401). */
export function requireRole(...roles: StaffRole[]) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.staff || !roles.includes(request.staff.role)) {
      throw new ForbiddenError(`Only ${roles.join(' or ')} accounts may do this`);
    }
  };
}
