import type { StaffRow } from '@storage/domain/auth/staff';
import type { FastifyRequest } from 'fastify';
import type { CommonQueryMethods } from 'slonik';
import { resolveSessions, type SessionTwoFactor } from '../auth/sessions.ts';

// The session cookie (@fastify/secure-session, encrypted) carries only the tokens of server-side
// sessions (api/src/auth/sessions.ts): one for a staff member, one for a renter's portal visit.
declare module '@fastify/secure-session' {
  interface SessionData {
    staffSession: string;
    customerSession: string;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the session rows live (set by the session plugin). */
    sessionStore: CommonQueryMethods | null;
  }
}

/** Who sent a request, as its session says: a staff member, a renter's portal session, both, or neither. */
export interface Caller {
  staffId: string | null;
  customerId: string | null;
  /** The active staff member the staff session names; null when none, or deactivated. */
  staff: StaffRow | null;
  /** The active staff member's two-factor sign-in (null without one): on, and required by the business. */
  twoFactor: SessionTwoFactor | null;
}

const NOBODY: Caller = { staffId: null, customerId: null, staff: null, twoFactor: null };

/** The session tokens the request's cookie carries. Only the session plugin and sign-in/out read these. */
export function sessionTokens(request: FastifyRequest): { staff?: string; customer?: string } {
  const session = request.session;
  if (!session) return {};
  const staff = session.get('staffSession');
  const customer = session.get('customerSession');
  return { ...(typeof staff === 'string' ? { staff } : {}), ...(typeof customer === 'string' ? { customer } : {}) };
}

const callers = new WeakMap<FastifyRequest, Promise<Caller>>();

/**
 * The one way code outside the session plugin learns who the caller is: the cookie's sessions,
 * checked against their rows (revoked and expired ones name nobody). Resolved once per request.
 */
export function callerOf(request: FastifyRequest): Promise<Caller> {
  let caller = callers.get(request);
  if (!caller) {
    const store = request.server.sessionStore;
    caller = store ? resolveSessions(store, sessionTokens(request)) : Promise.resolve(NOBODY);
    callers.set(request, caller);
  }
  return caller;
}

/**
 * The active staff member the request's session names (null: none, deactivated, or signed out),
 * read with the session itself, once per request: the read-only check and requireStaff both ask.
 */
export async function signedInStaff(request: FastifyRequest): Promise<StaffRow | null> {
  return (await callerOf(request)).staff;
}

/** After a request changes its own sessions (sign-in, sign-out), the next callerOf looks again. */
export function forgetCaller(request: FastifyRequest): void {
  callers.delete(request);
}
