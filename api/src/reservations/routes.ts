import { WaitlistEntry } from '@storage/contracts/public';
import { CancelReservationRequest, ConvertReservationRequest, ListReservationsQuery, Reservation } from '@storage/contracts/reservations';
import { cancelReservation, convertReservation } from '@storage/domain/reservations/commands';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { empty, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { listOpenReservations, listWaitlist } from './queries.ts';

export async function reservationRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Reservations', access: 'staff' });
  const leasing = { roles: ['owner', 'manager', 'clerk'] } as const;

  app.get(
    '/api/reservations',
    {
      schema: {
        summary: 'Open reservations',
        querystring: ListReservationsQuery,
        response: { 200: json('The reservations not yet moved in or cancelled', z.array(Reservation)) },
      },
    },
    async (request) => listOpenReservations(deps.pool, request.query),
  );

  app.get(
    '/api/waitlist',
    { schema: { summary: 'The waiting list', querystring: ListReservationsQuery, response: { 200: json('Who waits for a unit', z.array(WaitlistEntry)) } } },
    async (request) => listWaitlist(deps.pool, request.query),
  );

  app.post(
    '/api/reservations/:id/convert',
    {
      config: leasing,
      schema: {
        summary: 'Move a reservation in',
        description: "Starts the lease of a reservation: on its move-in date at the unit's rate unless the body says otherwise. The body may be left out.",
        params: IdParams,
        body: ConvertReservationRequest.prefault({}),
        response: { 200: json('The reservation and its lease', z.object({ reservationId: z.uuid(), leaseId: z.uuid().nullable() })) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const result = await convertReservation(commandContext(deps, request), id, request.body);
      if (result.position) await deps.afterAppend(result.position);
      return { reservationId: id, leaseId: result.state.status === 'converted' ? result.state.leaseId : null };
    },
  );

  app.post(
    '/api/reservations/:id/cancel',
    {
      config: leasing,
      schema: {
        summary: 'Cancel a reservation',
        description: 'The body may be left out.',
        params: IdParams,
        body: CancelReservationRequest.prefault({}),
        response: { 204: empty('Cancelled') },
      },
    },
    async (request, reply) => {
      const result = await cancelReservation(commandContext(deps, request), request.params.id, request.body.reason || null);
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(204).send();
    },
  );
}
