import secureSession from '@fastify/secure-session';
import type { AuthUser } from '@storage/contracts/auth';
import type { StaffRow } from '@storage/domain/auth/staff';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { CommonQueryMethods } from 'slonik';
import { openSession, revokeSessions, SESSION_LIFETIME_SECONDS, type SessionTwoFactor } from '../auth/sessions.ts';
import type { AppDeps } from '../deps.ts';
import { forgetCaller, sessionTokens, signedInStaff } from '../http/caller.ts';
import '../portal/session.ts';

declare module 'fastify' {
  interface FastifyRequest {
    staff: StaffRow | null;
  }
  interface FastifyInstance {
    /** Answers 401 unless a staff member is signed in (access.ts calls it for staff routes); sets request.staff. */
    requireStaff(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

/** The signed-in member as the console sees them; `twoFactor`: on for them, and required by the business. */
export function toAuthUser(staff: StaffRow, twoFactor: SessionTwoFactor): AuthUser {
  return {
    id: staff.id,
    email: staff.email,
    firstName: staff.first_name,
    lastName: staff.last_name,
    profileImageUrl: staff.profile_image_url,
    role: staff.role,
    twoFactorEnabled: twoFactor.enabled,
    twoFactorSetupRequired: twoFactor.required && !twoFactor.enabled,
  };
}

/** Signs a staff member in: a fresh cookie (any sessions the old one carried end) with a new server-side session. */
export async function openStaffSession(db: CommonQueryMethods, request: FastifyRequest, staffId: string): Promise<void> {
  const previous = sessionTokens(request);
  await revokeSessions(db, [previous.staff, previous.customer]);
  request.session.regenerate();
  request.session.set('staffSession', await openSession(db, 'staff', staffId));
  forgetCaller(request);
}

/** Signs out: ends the sessions the cookie carries (staff and portal) and clears the cookie. */
export async function closeSessions(db: CommonQueryMethods, request: FastifyRequest): Promise<void> {
  const { staff, customer } = sessionTokens(request);
  await revokeSessions(db, [staff, customer]);
  request.session.delete();
  forgetCaller(request);
}

/** The cookie that carries the session tokens (a staff member's, a renter's portal visit's, or both). */
export const SESSION_COOKIE = 'storage_session';

export const sessionPlugin = fp(async (app: FastifyInstance, deps: Pick<AppDeps, 'sessionKey' | 'pool'>) => {
  await app.register(secureSession, {
    key: deps.sessionKey,
    cookieName: SESSION_COOKIE,
    // The cookie outlives no session it carries; the rows decide.
    expiry: SESSION_LIFETIME_SECONDS.staff,
    cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: 'auto' },
  });
  app.decorate('sessionStore', deps.pool);
  app.decorateRequest('staff', null);
  app.decorateRequest('customerId', null);
  app.decorate('requireStaff', async (request: FastifyRequest, reply: FastifyReply) => {
    const staff = await signedInStaff(request);
    if (!staff) {
      return reply.status(401).send({ message: 'Unauthorized' });
    }
    request.staff = staff;
  });
});
