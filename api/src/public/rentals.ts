import rateLimit from '@fastify/rate-limit';
import { accessHoursWords } from '@storage/contracts/access-hours';
import { streams } from '@storage/contracts/events';
import { LeaseSignature, LeaseToSign, SIGNATURE_MARK_MAX } from '@storage/contracts/lease-signatures';
import {
  CompleteRentalRequest,
  RentalCheckout,
  RentalCheckoutRequest,
  RentalChoicesRequest,
  RentalOffer,
  RentalSignatureRequest,
  RentalStatus,
  RentalStatusRequest,
  RentalTestPaymentRequest,
} from '@storage/contracts/online-rentals';
import { ConfirmTestPaymentResponse } from '@storage/contracts/payments';
import { currentGateCodes } from '@storage/domain/access/gate-codes';
import { ConflictError, NotFoundError } from '@storage/domain/commands/errors';
import { aggregateFrom, loadAggregate } from '@storage/domain/commands/handle';
import { latestSignature, leaseDocumentSha256, leaseDocumentText, leaseSignatureState } from '@storage/domain/leases/signature';
import { rentalOfIntent } from '@storage/domain/payments/intents';
import { recordIntentPayment } from '@storage/domain/payments/record';
import { type CheckoutSigning, rentalQuote, startRentalCheckout } from '@storage/domain/reservations/online-rental';
import { reservationAggregate } from '@storage/domain/reservations/reservation';
import { unitAggregate } from '@storage/domain/units/unit';
import { createPaymentProvider } from '@storage/platform/payments/configured-provider';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { getFacility } from '../facilities/queries.ts';
import { commandContext } from '../http/command-context.ts';
import { errorAnswer, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { leaseDocumentBody } from '../leases/document.ts';
import { agreementParties, checkMark, leaseToSign, signLeaseFor } from '../leases/signatures.ts';
import { requestOfToken } from './reservation-requests.ts';

// Finishing an online reservation online, with the link mailed to confirm it as the key: the
// offer (quote with a plan and a promotion), the agreement those choices make and its signature,
// the card payment, and the payment's outcome.

const limited = {
  rateLimit: {
    max: 60,
    timeWindow: '10 minutes',
    errorResponseBuilder: () => ({ statusCode: 429, message: 'Too many requests. Please try again later or call us directly.' }),
  },
};

const NO_LINK = 'This link does not confirm any reservation. Please check the link in your email.';

export async function onlineRentalRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Public rental pages', access: 'public' });
  await app.register(rateLimit, {
    global: false,
    ...(deps.redis ? { redis: deps.redis, nameSpace: 'storage-rental-rate-limit-' } : {}),
  });
  const provider = createPaymentProvider(deps, deps.pool);

  /** The reservation a confirmed link names; 404 for any other token (an unconfirmed link holds nothing yet). */
  async function reservationOf(token: string): Promise<string> {
    const pending = await requestOfToken(deps.pool, token);
    if (!pending?.confirmed) throw new NotFoundError(NO_LINK, 'token');
    return pending.reservationId;
  }

  /** The unit as the renter sees it, and when its facility lets them in. */
  async function unitOf(unitId: string) {
    const { state } = await loadAggregate(deps.store, streams.unit(unitId), unitAggregate);
    if (state.status === 'none') throw new NotFoundError('Unit not found');
    const facility = state.fields.facilityId ? await getFacility(deps.pool, state.fields.facilityId) : null;
    const { unitNumber, building, size } = state.fields;
    return { unit: { unitNumber, building, size, facilityName: facility?.name ?? null }, accessHours: accessHoursWords(facility?.accessHours) };
  }

  app.post(
    '/api/public/rentals/offer',
    {
      config: limited,
      schema: {
        summary: 'What finishing an online reservation costs',
        description:
          "The move-in quote of the reservation's unit on its move-in day (today if that has passed), with the protection plan and the promotion chosen (400 naming the field when one does not apply online), and what may be chosen.",
        body: RentalChoicesRequest,
        response: { 200: json('The offer', RentalOffer), 404: errorAnswer(NO_LINK), 409: errorAnswer('The reservation is no longer open') },
      },
    },
    async (request): Promise<RentalOffer> => {
      const { token, ...choices } = request.body;
      const reservationId = await reservationOf(token);
      const { reservation, quote } = await rentalQuote(deps.store, reservationId, deps.clock.now(), choices);
      const { unit } = await unitOf(reservation.details.unitId);
      return { reservationId, unit, moveInDate: quote.startDate, quote };
    },
  );

  /**
   * The agreement an online rental's lease will be, rendered as the lease's own will be once it
   * starts (the lease takes the reservation's id): the renter, the unit, the quote's rent and day,
   * the plan and the promotion as addenda, the facility's terms.
   */
  const renderRentalAgreement: CheckoutSigning['render'] = async (quote, { leaseId, customerId, unitId }) => {
    const { customer, unit, terms } = await agreementParties(deps, customerId, unitId);
    return leaseDocumentBody({
      lease: { id: leaseId, customer, unit, monthlyRate: quote.monthlyRate, depositAmount: null, startDate: quote.startDate, endDate: null, isActive: true },
      facility: terms.facility,
      billing: terms.settings,
      additionalTerms: terms.leaseTerms.additionalTerms,
      addenda: {
        protection: quote.protection && { ...quote.protection, effectiveDate: quote.startDate },
        promotion: quote.promotion,
      },
    });
  };

  app.post(
    '/api/public/rentals/agreement',
    {
      config: limited,
      schema: {
        summary: 'The lease agreement of an online rental, to sign',
        description:
          'Before paying: the agreement the choices make (the protection plan and the promotion as its addenda), to sign with the payment. Once rented: the lease as it stands, and whether it is signed.',
        body: RentalChoicesRequest,
        response: {
          200: json('The agreement and its signature state', LeaseToSign),
          404: errorAnswer(NO_LINK),
          409: errorAnswer('The reservation is no longer open'),
        },
      },
    },
    async (request): Promise<LeaseToSign> => {
      const { token, ...choices } = request.body;
      const reservationId = await reservationOf(token);
      const { state } = await loadAggregate(deps.store, streams.reservation(reservationId), reservationAggregate);
      if (state.status === 'converted') return leaseToSign(deps, state.leaseId);
      const { reservation, quote } = await rentalQuote(deps.store, reservationId, deps.clock.now(), choices);
      const document = await renderRentalAgreement(quote, { leaseId: reservationId, customerId: reservation.customerId, unitId: reservation.details.unitId });
      return {
        leaseId: reservationId,
        title: document.title,
        text: leaseDocumentText(document),
        documentSha256: leaseDocumentSha256(document),
        signature: null,
        signedThisDocument: false,
      };
    },
  );

  app.post(
    '/api/public/rentals/checkout',
    {
      config: limited,
      bodyLimit: 2 * SIGNATURE_MARK_MAX + 4096,
      schema: {
        summary: 'Sign the agreement of an online reservation, pay for it and move in',
        description:
          "The renter's signature of the agreement /agreement showed for these choices (409 when it changed since), then the card payment of the move-in invoice (a repeat gets the same payment back while its amount holds). When it succeeds the payment moves the renter in and records the signature on the lease; a payment the rental can no longer take is refunded. Nothing to pay (a free first month, no fees): moved in and signed at once.",
        body: RentalCheckoutRequest,
        response: {
          200: json('What to pay', RentalCheckout),
          404: errorAnswer(NO_LINK),
          409: errorAnswer('The reservation is no longer open, or its agreement changed'),
        },
      },
    },
    async (request): Promise<RentalCheckout> => {
      const { token, signature, ...choices } = request.body;
      checkMark(signature.mark);
      const reservationId = await reservationOf(token);
      const signing: CheckoutSigning = {
        signerName: signature.signerName,
        mark: signature.mark,
        shownSha256: signature.documentSha256,
        ipAddress: request.ip,
        userAgent: String(request.headers['user-agent'] ?? '').slice(0, 500),
        render: renderRentalAgreement,
      };
      const { position, ...outcome } = await startRentalCheckout(commandContext(deps, request), { pool: deps.pool, provider }, reservationId, choices, signing);
      if (position) await deps.afterAppend(position);
      if (outcome.kind === 'pay') return { ...outcome, provider: provider.name, publishableKey: provider.publishableKey };
      if (outcome.kind === 'paid') return outcome;
      return { kind: 'rented' };
    },
  );

  /** Where the reservation's online rental stands, and the gate code once the move-in assigned it. */
  async function statusOf(reservationId: string): Promise<RentalStatus> {
    const recorded = await deps.store.readStream(streams.reservation(reservationId));
    const { state } = aggregateFrom(recorded, reservationAggregate);
    if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Reservation not found');
    const { unit, accessHours } = await unitOf(state.details.unitId);
    const refunded = recorded.some((e) => e.type === 'reservation_checkout_refunded');
    if (state.status === 'converted') {
      const code = (await currentGateCodes(deps.store, [state.leaseId])).get(state.leaseId);
      const moveInDate = state.conversion?.startDate ?? state.details.moveInDate;
      const signed = latestSignature(await leaseSignatureState(deps, state.leaseId)) !== null;
      return {
        status: 'rented',
        reservationId,
        unit,
        accessHours,
        moveInDate,
        signed,
        gateCode: code && code.suspended === null ? code.code : null,
        message: code ? 'Your unit is rented. Use this gate code to enter.' : 'Your unit is rented. Your gate code is on its way.',
      };
    }
    const base = { reservationId, unit, accessHours, moveInDate: state.details.moveInDate, gateCode: null, signed: false };
    if (refunded && state.status !== 'submitted')
      return { ...base, status: 'refunded', message: 'Your payment was refunded: this reservation could not be rented.' };
    if (state.status === 'submitted' || state.status === 'converting')
      return { ...base, status: 'open', message: 'Your reservation is held. Finish your rental to get your gate code.' };
    return { ...base, status: 'closed', message: `This reservation was ${state.status}.` };
  }

  app.post(
    '/api/public/rentals/complete',
    {
      config: limited,
      schema: {
        summary: 'Report a succeeded rental payment',
        description:
          'The payment is asked of the provider (never taken on trust): succeeded, it moves the renter in and pays the move-in invoice, or is refunded when the rental can no longer be made. Repeatable.',
        body: CompleteRentalRequest,
        response: { 200: json('Where the rental stands', RentalStatus), 404: errorAnswer(NO_LINK), 409: errorAnswer('The payment has not succeeded') },
      },
    },
    async (request): Promise<RentalStatus> => {
      const reservationId = await reservationOf(request.body.token);
      const intent = await provider.retrieveIntent(request.body.paymentIntentId);
      // Only this reservation's own payment: another's id is unknown here.
      if (!intent || intent.invoiceId === null) throw new NotFoundError('Payment not found', 'paymentIntentId');
      if ((await rentalOfIntent(deps.pool, intent.id)) !== reservationId) throw new NotFoundError('Payment not found', 'paymentIntentId');
      const recorded = await recordIntentPayment(commandContext(deps, request), deps.pool, provider, { paymentIntentId: intent.id });
      if (recorded.position) await deps.afterAppend(recorded.position);
      return statusOf(reservationId);
    },
  );

  app.post(
    '/api/public/rentals/test-payment',
    {
      config: limited,
      schema: {
        summary: 'Pay a rental with the test provider',
        description:
          "The built-in test provider's card form for an online rental's payment (only while Stripe is not configured): the payment must be this reservation's.",
        body: RentalTestPaymentRequest,
        response: { 200: json('The outcome, as Stripe would answer it', ConfirmTestPaymentResponse), 404: errorAnswer('No such payment') },
      },
    },
    async (request): Promise<ConfirmTestPaymentResponse> => {
      if (!('confirmIntent' in provider)) throw new NotFoundError('Not Found');
      const reservationId = await reservationOf(request.body.token);
      const { paymentIntentId: id, card } = request.body;
      if ((await rentalOfIntent(deps.pool, id)) !== reservationId) throw new NotFoundError('Payment not found', 'paymentIntentId');
      const outcome = await provider.confirmIntent(id, card, new Date());
      if (outcome.status === 'unknown') throw new NotFoundError('Payment not found');
      if (outcome.status === 'already_succeeded') throw new ConflictError('This payment has already succeeded');
      if (outcome.status === 'canceled') throw new ConflictError('This payment was replaced by a newer one: reload the page to pay');
      return { paymentIntentId: id, ...outcome };
    },
  );

  /** The lease an online rental made (the reservation's id), and its renter; 409 while it is not rented. */
  async function rentedLease(token: string) {
    const reservationId = await reservationOf(token);
    const { state } = await loadAggregate(deps.store, streams.reservation(reservationId), reservationAggregate);
    if (state.status !== 'converted' || state.details.customerId === null)
      throw new ConflictError('This reservation is not rented yet. Finish your rental first.');
    return { leaseId: state.leaseId, customerId: state.details.customerId };
  }

  app.post(
    '/api/public/rentals/signature',
    {
      config: limited,
      bodyLimit: 2 * SIGNATURE_MARK_MAX + 4096,
      schema: {
        summary: 'Sign the lease of an online rental',
        description:
          "The renter's typed name and drawn mark on the agreement as the server renders it now (documentSha256: the one they were shown; 409 when it changed). Their address and browser are recorded with it. A repeat for the same agreement answers the first signature.",
        body: RentalSignatureRequest,
        response: {
          200: json('Signed before', LeaseSignature),
          201: json('Signed', LeaseSignature),
          404: errorAnswer(NO_LINK),
          409: errorAnswer('Not rented yet, or the lease changed'),
        },
      },
    },
    async (request, reply) => {
      const { token, ...body } = request.body;
      const { leaseId, customerId } = await rentedLease(token);
      const ctx = { ...commandContext(deps, request), actor: { type: 'customer' as const, id: customerId } };
      const { recorded, signature } = await signLeaseFor(deps, ctx, request, leaseId, body, 'online');
      return reply.status(recorded ? 201 : 200).send(signature);
    },
  );

  app.post(
    '/api/public/rentals/status',
    {
      config: limited,
      schema: {
        summary: 'Where an online rental stands',
        body: RentalStatusRequest,
        response: { 200: json('Where the rental stands', RentalStatus), 404: errorAnswer(NO_LINK) },
      },
    },
    async (request) => statusOf(await reservationOf(request.body.token)),
  );
}
