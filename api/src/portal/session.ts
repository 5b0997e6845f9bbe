import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CommonQueryMethods } from 'slonik';
import { openSession, revokeSessions } from '../auth/sessions.ts';
import { callerOf, forgetCaller, sessionTokens } from '../http/caller.ts';

// The renter's portal session: opened by the gate (email + last 4 phone digits) for one
// customer, a server-side session whose token rides in the same encrypted cookie as a staff
// session's, under its own field.

declare module 'fastify' {
  interface FastifyRequest {
    /** The customer whose portal session this request carries (set by requireCustomerSession, on portal routes). */
    customerId: string | null;
  }
}

export async function openCustomerSession(db: CommonQueryMethods, request: FastifyRequest, customerId: string): Promise<void> {
  await revokeSessions(db, [sessionTokens(request).customer]);
  request.session.set('customerSession', await openSession(db, 'customer', customerId));
  forgetCaller(request);
}

export async function closeCustomerSession(db: CommonQueryMethods, request: FastifyRequest): Promise<void> {
  await revokeSessions(db, [sessionTokens(request).customer]);
  request.session.set('customerSession', undefined);
  forgetCaller(request);
}

/** Answers 401 unless the request carries a live portal session (access.ts calls it for portal routes); sets request.customerId. */
export async function requireCustomerSession(request: FastifyRequest, reply: FastifyReply) {
  const { customerId } = await callerOf(request);
  if (!customerId) return reply.status(401).send({ message: 'Please verify your account to continue' });
  request.customerId = customerId;
}
