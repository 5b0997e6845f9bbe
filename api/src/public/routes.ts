import rateLimit from '@fastify/rate-limit';
import {
  AvailableUnit,
  AvailableUnitsQuery,
  JoinWaitlistRequest,
  SubmitReservationRequest,
  SubmittedReservation,
  UNIT_TAKEN_MESSAGE,
} from '@storage/contracts/public';
import { joinWaitlist, submitReservation } from '@storage/domain/reservations/commands';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { errorAnswer, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { listAvailableUnits } from './queries.ts';

// Anyone may write here, so each address gets a modest number of submissions.
const PUBLIC_SUBMISSIONS_PER_WINDOW = 20;
const PUBLIC_SUBMISSION_WINDOW = '10 minutes';

const limited = {
  rateLimit: {
    max: PUBLIC_SUBMISSIONS_PER_WINDOW,
    timeWindow: PUBLIC_SUBMISSION_WINDOW,
    errorResponseBuilder: () => ({ statusCode: 429, message: 'Too many requests. Please try again later or call us directly.' }),
  },
};

export async function publicRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Public rental pages', access: 'public' });
  await app.register(rateLimit, {
    global: false,
    ...(deps.redis ? { redis: deps.redis, nameSpace: 'storage-public-rate-limit-' } : {}),
  });

  app.get(
    '/api/public/units/available',
    {
      schema: {
        summary: 'Available units',
        description: 'The units anyone may rent now.',
        querystring: AvailableUnitsQuery,
        response: { 200: json('The units', z.array(AvailableUnit)) },
      },
    },
    async (request) => listAvailableUnits(deps.pool, request.query),
  );

  app.post(
    '/api/public/waitlist',
    {
      config: limited,
      schema: {
        summary: 'Join the waiting list',
        body: JoinWaitlistRequest,
        response: { 201: json('On the list', z.object({ message: z.string() })) },
      },
    },
    async (request, reply) => {
      const result = await joinWaitlist(commandContext(deps, request), request.body);
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(201).send({ message: 'You are on the waiting list. We will let you know when a unit is available.' });
    },
  );

  app.post(
    '/api/public/reservations',
    {
      config: limited,
      schema: {
        summary: 'Reserve a unit',
        body: SubmitReservationRequest,
        response: { 201: json('Reserved', SubmittedReservation), 409: errorAnswer(UNIT_TAKEN_MESSAGE) },
      },
    },
    async (request, reply) => {
      const result = await submitReservation(commandContext(deps, request), request.body);
      if (result.position) await deps.afterAppend(result.position);
      if (result.state.status !== 'submitted') throw new Error('A submitted reservation has no state');
      const submitted: SubmittedReservation = {
        reservationId: result.state.reservationId,
        unitId: result.state.details.unitId,
        moveInDate: result.state.details.moveInDate,
      };
      return reply.status(201).send(submitted);
    },
  );
}
