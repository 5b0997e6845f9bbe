import { type DomainEvent, type EventData, streams } from '@storage/contracts/events';
import { LEASE_CHANGED_SINCE_OPENED, type SignedLeaseDocument } from '@storage/contracts/lease-signatures';
import { toCents } from '@storage/contracts/money';
import type { PublicMoveInQuote } from '@storage/contracts/quotes';
import type { EventStore, Position } from '@storage/eventstore/port';
import { type PaymentProvider, type ProviderPaymentIntent, refundKeyOf } from '@storage/platform/payments/provider';
import type { DatabasePool } from 'slonik';
import { leaseInvoiceId } from '../billing/lease-billing.ts';
import type { RentalChoices } from '../billing/offers.ts';
import { quoteReservedMoveIn } from '../billing/quote.ts';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { aggregateFrom, type CommandContext, handleCommand, loadAggregate } from '../commands/handle.ts';
import { customerAggregate } from '../customers/customer.ts';
import { invoiceAggregate } from '../invoices/invoice.ts';
import { leaseDocumentSha256, signLease } from '../leases/signature.ts';
import { intentForInvoice, markIntentSettled } from '../payments/intents.ts';
import { convertReservation } from './commands.ts';
import { type ReservationState, reservationAggregate } from './reservation.ts';

// Finishing an online reservation online: the renter chooses a plan and a promotion, signs the
// agreement those choices make, pays the move-in invoice by card, and is moved in by the payment
// itself, the signature recorded on the lease as it starts. The card is charged before the
// lease exists, for the invoice the lease will get (its id is derived from the lease, which takes
// the reservation's id). Every path that learns the payment succeeded (the renter's page, the
// webhook, the reconciliation) calls finishPaidRental: it moves the renter in on the choices of
// that payment's checkout, or, when the rental can no longer be made (the reservation cancelled or
// expired, a promotion ended), gives the money back. Money is never kept without a rental.

/** The renter's signature of the agreement, as the checkout keeps it until the lease exists. */
export type RentalSignature = NonNullable<EventData<'reservation_checkout_started'>['signature']>;

type Checkout = RentalChoices & { amount: string; startDate: string; signature: RentalSignature | undefined };

/** The checkouts of a reservation: what each card payment is for, and which were given back. */
interface CheckoutState {
  checkouts: ReadonlyMap<string, Checkout>;
  refunded: ReadonlySet<string>;
}

const noCheckouts: CheckoutState = { checkouts: new Map(), refunded: new Set() };

function evolveCheckouts(state: CheckoutState, event: DomainEvent): CheckoutState {
  switch (event.type) {
    case 'reservation_checkout_started': {
      const { paymentIntentId, amount, startDate, protectionPlanId, promotionId, signature } = event.data;
      return { ...state, checkouts: new Map(state.checkouts).set(paymentIntentId, { amount, startDate, protectionPlanId, promotionId, signature }) };
    }
    case 'reservation_checkout_refunded':
      return { ...state, refunded: new Set(state.refunded).add(event.data.paymentIntentId) };
    default:
      return state;
  }
}

const checkoutAggregate = { initial: noCheckouts, evolve: evolveCheckouts };

/** An online reservation that is still open (submitted, its customer known), or the refusal a renter reads. */
function openOnlineReservation(state: ReservationState) {
  if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Reservation not found');
  if (state.status === 'converted' || state.status === 'converting')
    throw new ConflictError('This reservation is already rented. Check your email for your gate code.');
  if (state.status !== 'submitted') throw new ConflictError(`This reservation was ${state.status}. Please reserve a unit again.`);
  const customerId = state.details.customerId;
  if (customerId === null) throw new ConflictError('This reservation must be finished at the desk.');
  return { ...state, customerId };
}

/** The reservation, its move-in quote for these choices, and the invoice and customer a payment is for. */
export async function rentalQuote(store: EventStore, reservationId: string, now: Date, choices: Partial<RentalChoices> = {}) {
  const { state } = await loadAggregate(store, streams.reservation(reservationId), reservationAggregate);
  const reservation = openOnlineReservation(state);
  const { unitId, moveInDate } = reservation.details;
  const quote: PublicMoveInQuote = await quoteReservedMoveIn(store, { reservationId, unitId, moveInDate }, now, {
    protectionPlanId: choices.protectionPlanId ?? undefined,
    promotionId: choices.promotionId ?? undefined,
  });
  const invoice = quote.dueToday[0];
  if (!invoice || quote.dueToday.length !== 1) throw new ConflictError('This rental must be finished at the desk.');
  return { reservation, quote, invoiceId: leaseInvoiceId(reservationId, invoice.periodStart), amount: invoice.total };
}

export type CheckoutOutcome = (
  | { kind: 'pay'; paymentIntentId: string; clientSecret: string; amount: string }
  /** Nothing to pay today (a free first month, no fees): moved in at once. */
  | { kind: 'rented'; leaseId: string }
  /** A payment for it already took the money: it is being (or was) moved in. */
  | { kind: 'paid'; paymentIntentId: string }
) & { position: Position | null };

/** The lease an online rental makes (it takes the reservation's id), its renter and its unit. */
export interface RentalParties {
  leaseId: string;
  customerId: string;
  unitId: string;
}

/** The renter signing as they pay: what they typed and drew, the hash of the agreement they read, the evidence. */
export interface CheckoutSigning {
  signerName: string;
  mark: string;
  shownSha256: string;
  ipAddress: string;
  userAgent: string;
  /** The agreement the lease these choices make will be, rendered from the same quote the payment is for. */
  render(quote: PublicMoveInQuote, rental: RentalParties): Promise<SignedLeaseDocument>;
}

/** The signature of the agreement rendered now; refused (409) when it is not the one the renter read. */
async function checkoutSignature(ctx: CommandContext, signing: CheckoutSigning, quote: PublicMoveInQuote, rental: RentalParties) {
  const document = await signing.render(quote, rental);
  const documentSha256 = leaseDocumentSha256(document);
  if (documentSha256 !== signing.shownSha256) throw new ConflictError(LEASE_CHANGED_SINCE_OPENED, 'documentSha256');
  const { signerName, mark, ipAddress, userAgent } = signing;
  return { signerName, mark, signedAt: ctx.now.toISOString(), ipAddress, userAgent, documentSha256, document } satisfies RentalSignature;
}

/** Records the renter's signature on the lease the online rental made (once per document: a repeat records nothing). */
async function signRentedLease(ctx: CommandContext, leaseId: string, signature: RentalSignature) {
  return signLease(ctx, { leaseId, ...signature, shownSha256: signature.documentSha256, channel: 'online' });
}

/**
 * Starts (or resumes) paying for an online reservation's move-in: the renter signs the agreement
 * these choices make, then the card payment for the move-in invoice's amount is recorded on the
 * reservation's stream with the choices and the signature, so that the payment, when it
 * succeeds, moves the renter in on them and records the signature on the lease.
 */
export async function startRentalCheckout(
  ctx: CommandContext,
  deps: { pool: DatabasePool; provider: PaymentProvider },
  reservationId: string,
  choices: RentalChoices,
  signing: CheckoutSigning,
): Promise<CheckoutOutcome> {
  const { reservation, quote, invoiceId, amount } = await rentalQuote(ctx.store, reservationId, ctx.now, choices);
  const parties = { leaseId: reservationId, customerId: reservation.customerId, unitId: reservation.details.unitId };
  const signature = await checkoutSignature(ctx, signing, quote, parties);
  const { startDate } = quote;
  if (toCents(amount) === 0n) {
    const converted = await convertReservation(ctx, reservationId, { depositAmount: null, startDate, ...choices }, 'online');
    const signed = await signRentedLease(ctx, reservationId, signature);
    return { kind: 'rented', leaseId: reservationId, position: signed.position ?? converted.position };
  }
  const { state: customer } = await loadAggregate(ctx.store, streams.customer(reservation.customerId), customerAggregate);
  if (customer.status === 'none') throw new NotFoundError('Customer not found');
  const intent = await intentForInvoice(deps.pool, deps.provider, {
    amount,
    invoiceId,
    customerId: reservation.customerId,
    customerEmail: customer.fields.email,
    reservationId,
  });
  if (intent.kind !== 'intent') return { kind: 'paid', paymentIntentId: intent.intentId, position: null };
  const started = await handleCommand(ctx, streams.reservation(reservationId), checkoutAggregate, (state) => {
    const known = state.checkouts.get(intent.id);
    if (
      known &&
      known.amount === amount &&
      known.startDate === startDate &&
      known.protectionPlanId === choices.protectionPlanId &&
      known.promotionId === choices.promotionId &&
      known.signature?.documentSha256 === signature.documentSha256
    )
      return [];
    return [{ type: 'reservation_checkout_started', data: { reservationId, paymentIntentId: intent.id, amount, startDate, ...choices, signature } }];
  });
  return { kind: 'pay', paymentIntentId: intent.id, clientSecret: intent.clientSecret, amount, position: started.position };
}

/** What became of a succeeded rental payment. */
export type PaidRental = { kind: 'rented'; leaseId: string } | { kind: 'refunded'; reason: string };

/**
 * Moves in the renter whose card payment for the reservation succeeded, on that payment's checkout,
 * or gives the money back when the rental cannot be made. Repeatable: a reservation converted by
 * this payment before answers rented; a payment given back before answers refunded.
 */
export async function finishPaidRental(
  ctx: CommandContext,
  deps: { pool: DatabasePool; provider: PaymentProvider },
  reservationId: string,
  intent: ProviderPaymentIntent,
): Promise<PaidRental> {
  const stream = streams.reservation(reservationId);
  const recorded = await ctx.store.readStream(stream);
  const checkouts = aggregateFrom(recorded, checkoutAggregate).state;
  const { state } = aggregateFrom(recorded, reservationAggregate);
  if (checkouts.refunded.has(intent.id)) return { kind: 'refunded', reason: 'The payment was refunded' };
  const checkout = checkouts.checkouts.get(intent.id);
  let reason: string | null = null;
  if (!checkout) reason = 'No rental was started with this payment';
  else if (toCents(checkout.amount) !== toCents(intent.amount)) reason = 'The payment is not the amount of the rental';
  else {
    let rentedOnline = false;
    try {
      if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Reservation not found');
      // On the day the payment was quoted for: its invoice is that day's (even once the day has passed).
      const { protectionPlanId, promotionId, startDate } = checkout;
      // Converted before (by this payment, or at the desk meanwhile): nothing more to convert.
      const converted =
        state.status === 'converted'
          ? state
          : (await convertReservation(ctx, reservationId, { depositAmount: null, startDate, protectionPlanId, promotionId }, 'online')).state;
      // The invoice the payment was made for exists only if the lease started on the day it was
      // quoted for: staff who moved the renter in on another day made another invoice.
      const { state: invoice } = await loadAggregate(ctx.store, streams.invoice(intent.invoiceId ?? reservationId), invoiceAggregate);
      if (invoice.status === 'none') throw new ConflictError('The rental was finished at the office on other terms');
      rentedOnline = converted.status === 'converted' && converted.conversion?.channel === 'online';
    } catch (error) {
      if (!(error instanceof ConflictError || error instanceof DomainRuleError || error instanceof NotFoundError)) throw error;
      reason = error.message;
    }
    if (reason === null) {
      // The agreement signed before paying is the one this rental made; a lease the desk made is
      // signed there, on its own terms. A failure here is retried with the payment's next report
      // (the intent stays unsettled until its invoice is paid), never a reason to give money back.
      if (rentedOnline && checkout.signature) await signRentedLease(ctx, reservationId, checkout.signature);
      return { kind: 'rented', leaseId: reservationId };
    }
  }
  // The rental cannot be made: the money goes back, once (the provider's idempotency key), recorded once (the stream).
  const refund = await deps.provider.refund(intent.id, intent.amount, refundKeyOf(intent.id));
  await handleCommand(ctx, stream, checkoutAggregate, (current) =>
    current.refunded.has(intent.id)
      ? []
      : [{ type: 'reservation_checkout_refunded', data: { reservationId, paymentIntentId: intent.id, refundId: refund.id, amount: intent.amount, reason } }],
  );
  await markIntentSettled(deps.pool, intent.id);
  return { kind: 'refunded', reason };
}
