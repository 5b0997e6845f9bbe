import { pageHeaders } from '@storage/contracts/paging';
import { WaitlistEntry } from '@storage/contracts/public';
import { CancelReservationRequest, ConvertReservationRequest, ListReservationsQuery, ListWaitlistQuery, Reservation } from '@storage/contracts/reservations';
import { cancelReservation, convertReservation } from '@storage/domain/reservations/commands';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { empty, json, page } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { listReservations, listWaitlist } from './queries.ts';

export async function reservationRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Reservations', access: 'staff' });
  const leasing = { roles: ['owner', 'manager', 'clerk'] } as const;

  app.get(
    '/api/reservations',
    {
      schema: {
        summary: 'List reservations',
        description: 'The open reservations (submitted or being moved in) unless a status is asked for.',
        querystring: ListReservationsQuery,
        response: { 200: page('A page of reservations', Reservation) },
      },
    },
    async (request, reply) => {
      const { reservations, paging } = await listReservations(deps.pool, request.query);
      return reply.headers(pageHeaders(paging)).send(reservations);
    },
  );

  app.get(
    '/api/waitlist',
    { schema: { summary: 'The waiting list', querystring: ListWaitlistQuery, response: { 200: page('A page of who waits for a unit', WaitlistEntry) } } },
    async (request, reply) => {
      const { entries, paging } = await listWaitlist(deps.pool, request.query);
      return reply.headers(pageHeaders(paging)).send(entries);
    },
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
