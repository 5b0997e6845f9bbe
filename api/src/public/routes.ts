import rateLimit from '@fastify/rate-limit';
import {
  AvailableUnit,
  AvailableUnitsQuery,
  ConfirmReservationRequest,
  JoinWaitlistRequest,
  RESERVATION_CONFIRM_MESSAGE,
  ReservationRequested,
  SubmitReservationRequest,
  SubmittedReservation,
  UNIT_TAKEN_MESSAGE,
} from '@storage/contracts/public';
import {
  MAX_MOVE_IN_SUMMARIES,
  MoveInSummariesQuery,
  MoveInSummary,
  PublicMoveInQuote,
  PublicMoveInQuoteQuery,
  UNIT_NOT_AVAILABLE_MESSAGE,
} from '@storage/contracts/quotes';
import { publicMoveInSummaries, quotePublicMoveIn } from '@storage/domain/billing/quote';
import { joinWaitlist, requireReservable, submitReservation } from '@storage/domain/reservations/commands';
import { developmentMailer } from '@storage/platform/mail/port';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { errorAnswer, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { listAvailableUnits } from './queries.ts';
import {
  CONFIRM_HOURS,
  mailConfirmationLink,
  markConfirmed,
  ONLINE_HOLDS_PER_RENTER,
  onlineHolds,
  REQUESTS_PER_EMAIL_PER_HOUR,
  recordRequest,
  requestOfToken,
} from './reservation-requests.ts';

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

// A quote is a read of a few streams; the wizard asks again as the visitor changes the date.
const QUOTES_PER_MINUTE = 60;
const quoteLimited = {
  rateLimit: {
    max: QUOTES_PER_MINUTE,
    timeWindow: '1 minute',
    errorResponseBuilder: () => ({ statusCode: 429, message: 'Too many requests. Please try again in a minute.' }),
  },
};

// The unit list asks once per page of units, each a read of the units' streams and their facilities'.
const SUMMARIES_PER_MINUTE = 30;
const summariesLimited = {
  rateLimit: {
    max: SUMMARIES_PER_MINUTE,
    timeWindow: '1 minute',
    errorResponseBuilder: () => ({ statusCode: 429, message: 'Too many requests. Please try again in a minute.' }),
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

  app.get(
    '/api/public/units/:id/move-in-quote',
    {
      config: quoteLimited,
      schema: {
        summary: 'What you pay at move-in',
        description: `The move-in charges of an available unit at its rate for a move-in on the day given (not before today), by the facility's billing settings: the invoices due at move-in, their total, and the next invoice. No deposit is quoted online. At most ${QUOTES_PER_MINUTE} a minute from one address.`,
        params: IdParams,
        querystring: PublicMoveInQuoteQuery,
        response: {
          200: json('The quote', PublicMoveInQuote),
          404: errorAnswer('No such unit'),
          409: errorAnswer(UNIT_NOT_AVAILABLE_MESSAGE),
          429: errorAnswer(`Too many requests: at most ${QUOTES_PER_MINUTE} a minute from one address`),
        },
      },
    },
    async (request) => {
      const { moveInDate, ...choices } = request.query;
      return quotePublicMoveIn(deps.store, request.params.id, moveInDate, deps.clock.now(), choices);
    },
  );

  app.get(
    '/api/public/units/move-in-summaries',
    {
      config: summariesLimited,
      schema: {
        summary: 'What moving in today costs, unit by unit',
        description: `For the available units named (at most ${MAX_MOVE_IN_SUMMARIES}, comma-separated): the total due at a move-in today with no plan and no promotion, the same figure the move-in quote gives, and the promotions offered online for the unit today. A unit that is not available has no summary. At most ${SUMMARIES_PER_MINUTE} a minute from one address.`,
        querystring: MoveInSummariesQuery,
        response: {
          200: json('The summaries, in the order asked', z.array(MoveInSummary)),
          429: errorAnswer(`Too many requests: at most ${SUMMARIES_PER_MINUTE} a minute from one address`),
        },
      },
    },
    async (request) => publicMoveInSummaries(deps.store, request.query.unitIds, deps.clock.now()),
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
        summary: 'Ask to reserve a unit',
        description: `Mails a link to the email typed; the reservation is made (the unit held, the customer added) only when the visitor confirms from it (POST /api/public/reservations/confirm), within ${CONFIRM_HOURS} hours. Each email gets ${REQUESTS_PER_EMAIL_PER_HOUR} links an hour.`,
        body: SubmitReservationRequest,
        response: {
          201: json('Asked: the link is mailed', ReservationRequested),
          409: errorAnswer(UNIT_TAKEN_MESSAGE),
          429: errorAnswer(
            `Too many requests: at most ${PUBLIC_SUBMISSIONS_PER_WINDOW} per ${PUBLIC_SUBMISSION_WINDOW} from one address, or ${REQUESTS_PER_EMAIL_PER_HOUR} links an hour for one email.`,
          ),
          503: errorAnswer('The link could not be mailed'),
        },
      },
    },
    async (request, reply) => {
      const unit = await requireReservable(commandContext(deps, request), request.body);
      const recorded = await recordRequest(deps.pool, request.body);
      if ('retryInMinutes' in recorded) {
        const minutes = recorded.retryInMinutes;
        return reply.status(429).send({
          message: `Too many reservation requests for this email. Try again in ${minutes} minute${minutes === 1 ? '' : 's'} or call us directly.`,
        });
      }
      const link = `${(deps.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '')}/reservations/confirm?token=${recorded.token}`;
      try {
        await mailConfirmationLink(
          deps.mailer ?? developmentMailer,
          request.body.customerData.email,
          link,
          `${unit.building}-${unit.unitNumber}`,
          request.body.customerData.moveInDate,
        );
      } catch (error) {
        request.log.error({ err: error }, 'the reservation link could not be mailed');
        return reply.status(503).send({ message: 'We could not email your confirmation link. Please try again in a few minutes or call us directly.' });
      }
      const requested: ReservationRequested = {
        unitId: request.body.unitId,
        moveInDate: request.body.customerData.moveInDate,
        confirmBy: recorded.confirmBy,
        message: RESERVATION_CONFIRM_MESSAGE,
      };
      return reply.status(201).send(requested);
    },
  );

  app.post(
    '/api/public/reservations/confirm',
    {
      config: limited,
      schema: {
        summary: 'Confirm a reservation from its mailed link',
        description: `Holds the unit and adds the customer, as the reservation always did; the same link again answers the same reservation. A renter holds at most ${ONLINE_HOLDS_PER_RENTER} units online at once.`,
        body: ConfirmReservationRequest,
        response: {
          200: json('Reserved', SubmittedReservation),
          404: errorAnswer('No reservation has this link'),
          409: errorAnswer(UNIT_TAKEN_MESSAGE),
          410: errorAnswer('The link has expired'),
        },
      },
    },
    async (request, reply) => {
      const pending = await requestOfToken(deps.pool, request.body.token);
      if (!pending)
        return reply.status(404).send({ message: 'This link does not confirm any reservation. Please check the link in your email.', field: 'token' });
      if (pending.expired && !pending.confirmed) {
        return reply.status(410).send({ message: 'This link has expired. Please reserve the unit again.', field: 'token' });
      }
      if (!pending.confirmed && (await onlineHolds(deps.pool, pending.request, pending.reservationId)) >= ONLINE_HOLDS_PER_RENTER) {
        return reply.status(409).send({ message: `You already hold ${ONLINE_HOLDS_PER_RENTER} units reserved online. Please call us to reserve more.` });
      }
      // The request's own reservation id: confirming again continues (or answers) the same reservation.
      const result = await submitReservation(commandContext(deps, request), pending.request, pending.reservationId);
      if (result.position) await deps.afterAppend(result.position);
      await markConfirmed(deps.pool, pending.id);
      if (result.state.status === 'none' || result.state.status === 'abandoned') throw new Error('A confirmed reservation has no state');
      const submitted: SubmittedReservation = {
        reservationId: result.state.reservationId,
        unitId: result.state.details.unitId,
        moveInDate: result.state.details.moveInDate,
      };
      return submitted;
    },
  );
}
