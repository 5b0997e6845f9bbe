import secureSession from '@fastify/secure-session';
import type { AuthUser } from '@storage/contracts/auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { findStaffById, type StaffRow } from '../auth/staff.ts';
import type { AppDeps } from '../deps.ts';
import '../portal/session.ts';

declare module '@fastify/secure-session' {
  interface SessionData {
    staffId: string;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    staff: StaffRow | null;
  }
  interface FastifyInstance {
    /** preHandler: answers 401 unless a staff member is signed in. */
    requireStaff(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

const SESSION_LIFETIME_SECONDS = 12 * 60 * 60;

export function toAuthUser(staff: StaffRow): AuthUser {
  return {
    id: staff.id,
    email: staff.email,
    firstName: staff.first_name,
    lastName: staff.last_name,
    profileImageUrl: staff.profile_image_url,
    role: staff.role,
  };
}

export const sessionPlugin = fp(async (app: FastifyInstance, deps: Pick<AppDeps, 'sessionKey' | 'pool'>) => {
  await app.register(secureSession, {
    key: deps.sessionKey,
    cookieName: 'storage_session',
    expiry: SESSION_LIFETIME_SECONDS,
    cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: 'auto' },
  });
  app.decorateRequest('staff', null);
  app.decorateRequest('customerId', null);
  app.decorate('requireStaff', async (request: FastifyRequest, reply: FastifyReply) => {
    const staffId = request.session.get('staffId');
    const staff = staffId ? await findStaffById(deps.pool, staffId) : null;
    if (!staff) {
      return reply.status(401).send({ message: 'Unauthorized' });
    }
    request.staff = staff;
  });
});
