import { Id } from '@storage/contracts/fields';
import { CancelReservationRequest, ConvertReservationRequest, ListReservationsQuery } from '@storage/contracts/reservations';
import { cancelReservation, convertReservation } from '@storage/domain/reservations/commands';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { requireRole } from '../http/roles.ts';
import { parseInput } from '../http/validate.ts';
import { listOpenReservations, listWaitlist } from './queries.ts';

const ReservationParams = z.strictObject({ id: Id });

export async function reservationRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);
  const leasing = { preHandler: requireRole('owner', 'manager', 'clerk') };

  app.get('/api/reservations', async (request) => {
    const query = parseInput(ListReservationsQuery, request.query, 'query');
    return listOpenReservations(deps.pool, query);
  });

  app.get('/api/waitlist', async (request) => {
    const query = parseInput(ListReservationsQuery, request.query, 'query');
    return listWaitlist(deps.pool, query);
  });

  app.post('/api/reservations/:id/convert', leasing, async (request) => {
    const { id } = parseInput(ReservationParams, request.params, 'params');
    const terms = parseInput(ConvertReservationRequest, request.body ?? {});
    const result = await convertReservation(commandContext(deps, request), id, terms);
    if (result.position) await deps.afterAppend(result.position);
    return { reservationId: id, leaseId: result.state.status === 'converted' ? result.state.leaseId : null };
  });

  app.post('/api/reservations/:id/cancel', leasing, async (request, reply) => {
    const { id } = parseInput(ReservationParams, request.params, 'params');
    const { reason } = parseInput(CancelReservationRequest, request.body ?? {});
    const result = await cancelReservation(commandContext(deps, request), id, reason || null);
    if (result.position) await deps.afterAppend(result.position);
    return reply.status(204).send();
  });
}
