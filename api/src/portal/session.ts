import type { FastifyReply, FastifyRequest } from 'fastify';

// The renter's portal session: opened by the gate (email + last 4 phone digits) for one
// customer, kept in the same encrypted cookie as a staff session but under its own field.

declare module '@fastify/secure-session' {
  interface SessionData {
    customerId: string;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The customer whose portal session this request carries (set by requireCustomerSession). */
    customerId: string | null;
  }
}

export function openCustomerSession(request: FastifyRequest, customerId: string): void {
  request.session.set('customerId', customerId);
}

export function closeCustomerSession(request: FastifyRequest): void {
  request.session.set('customerId', undefined);
}

/** preHandler: answers 401 unless the request carries a portal session. */
export async function requireCustomerSession(request: FastifyRequest, reply: FastifyReply) {
  const customerId = request.session.get('customerId');
  if (!customerId) return reply.status(401).send({ message: 'Please verify your account to continue' });
  request.customerId = customerId;
}
