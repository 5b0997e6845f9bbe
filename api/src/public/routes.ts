import rateLimit from '@fastify/rate-limit';
import { AvailableUnitsQuery, JoinWaitlistRequest, SubmitReservationRequest, type SubmittedReservation } from '@storage/contracts/public';
import { joinWaitlist, submitReservation } from '@storage/domain/reservations/commands';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { parseInput } from '../http/validate.ts';
import { listAvailableUnits } from './queries.ts';

// Anyone may write here, so each address gets a modest number of submissions.
const PUBLIC_SUBMISSIONS_PER_WINDOW = 20;
const PUBLIC_SUBMISSION_WINDOW = '10 minutes';

const limited = {
  config: {
    rateLimit: {
      max: PUBLIC_SUBMISSIONS_PER_WINDOW,
      timeWindow: PUBLIC_SUBMISSION_WINDOW,
      errorResponseBuilder: () => ({ statusCode: 429, message: 'Too many requests. Please try again later or call us directly.' }),
    },
  },
};

export async function publicRoutes(app: FastifyInstance, deps: AppDeps) {
  await app.register(rateLimit, {
    global: false,
    ...(deps.redis ? { redis: deps.redis, nameSpace: 'storage-public-rate-limit-' } : {}),
  });

  app.get('/api/public/units/available', async (request) => {
    const query = parseInput(AvailableUnitsQuery, request.query, 'query');
    return listAvailableUnits(deps.pool, query);
  });

  app.post('/api/public/waitlist', limited, async (request, reply) => {
    const entry = parseInput(JoinWaitlistRequest, request.body);
    const result = await joinWaitlist(commandContext(deps, request), entry);
    if (result.position) await deps.afterAppend(result.position);
    return reply.status(201).send({ message: 'You are on the waiting list. We will let you know when a unit is available.' });
  });

  app.post('/api/public/reservations', limited, async (request, reply) => {
    const reservation = parseInput(SubmitReservationRequest, request.body);
    const result = await submitReservation(commandContext(deps, request), reservation);
    if (result.position) await deps.afterAppend(result.position);
    if (result.state.status !== 'submitted') throw new Error('A submitted reservation has no state');
    const submitted: SubmittedReservation = {
      reservationId: result.state.reservationId,
      unitId: result.state.details.unitId,
      moveInDate: result.state.details.moveInDate,
    };
    return reply.status(201).send(submitted);
  });
}
