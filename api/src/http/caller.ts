import type { FastifyRequest } from 'fastify';

/** Who sent a request, as its session says: a staff member, a renter's portal session, both, or neither. */
export interface Caller {
  staffId: string | null;
  customerId: string | null;
}

/** The one way code outside the session plugin learns who the caller is. */
export async function callerOf(request: FastifyRequest): Promise<Caller> {
  return {
    staffId: request.session?.get('staffId') ?? null,
    customerId: request.session?.get('customerId') ?? null,
  };
}
