import { type DomainEvent, streams } from '@storage/contracts/events';
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
import { intentForInvoice, markIntentSettled } from '../payments/intents.ts';
import { convertReservation } from './commands.ts';
import { type ReservationState, reservationAggregate } from './reservation.ts';

// Finishing an online reservation online: the renter chooses a plan and a promotion, pays the
// move-in invoice by card, and is moved in by the payment itself. The card is charged before the
// lease exists, for the invoice the lease will get (its id is derived from the lease, which takes
// the reservation's id). Every path that learns the payment succeeded (the renter's page, the
// webhook, the reconciliation) calls finishPaidRental: it moves the renter in on the choices of
// that payment's checkout, or, when the rental can no longer be made (the reservation cancelled or
// expired, a promotion ended), gives the money back. Money is never kept without a rental.

/** The checkouts of a reservation: what each card payment is for, and which were given back. */
interface CheckoutState {
  checkouts: ReadonlyMap<string, RentalChoices & { amount: string; startDate: string }>;
  refunded: ReadonlySet<string>;
}

const noCheckouts: CheckoutState = { checkouts: new Map(), refunded: new Set() };

function evolveCheckouts(state: CheckoutState, event: DomainEvent): CheckoutState {
  switch (event.type) {
    case 'reservation_checkout_started': {
      const { paymentIntentId, amount, startDate, protectionPlanId, promotionId } = event.data;
      return { ...state, checkouts: new Map(state.checkouts).set(paymentIntentId, { amount, startDate, protectionPlanId, promotionId }) };
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

/**
 * Starts (or resumes) paying for an online reservation's move-in: the card payment for the move-in
 * invoice's amount on these choices, recorded on the reservation's stream so that the payment, when
 * it succeeds, moves the renter in on them.
 */
export async function startRentalCheckout(
  ctx: CommandContext,
  deps: { pool: DatabasePool; provider: PaymentProvider },
  reservationId: string,
  choices: RentalChoices,
): Promise<CheckoutOutcome> {
  const { reservation, quote, invoiceId, amount } = await rentalQuote(ctx.store, reservationId, ctx.now, choices);
  const { startDate } = quote;
  if (toCents(amount) === 0n) {
    const converted = await convertReservation(ctx, reservationId, { depositAmount: null, startDate, ...choices }, 'online');
    return { kind: 'rented', leaseId: reservationId, position: converted.position };
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
      known.promotionId === choices.promotionId
    )
      return [];
    return [{ type: 'reservation_checkout_started', data: { reservationId, paymentIntentId: intent.id, amount, startDate, ...choices } }];
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
    try {
      if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Reservation not found');
      // On the day the payment was quoted for: its invoice is that day's (even once the day has passed).
      const { protectionPlanId, promotionId, startDate } = checkout;
      // Converted before (by this payment, or at the desk meanwhile): nothing more to convert.
      if (state.status !== 'converted') {
        await convertReservation(ctx, reservationId, { depositAmount: null, startDate, protectionPlanId, promotionId }, 'online');
      }
      // The invoice the payment was made for exists only if the lease started on the day it was
      // quoted for: staff who moved the renter in on another day made another invoice.
      const { state: invoice } = await loadAggregate(ctx.store, streams.invoice(intent.invoiceId ?? reservationId), invoiceAggregate);
      if (invoice.status === 'none') throw new ConflictError('The rental was finished at the office on other terms');
      return { kind: 'rented', leaseId: reservationId };
    } catch (error) {
      if (!(error instanceof ConflictError || error instanceof DomainRuleError || error instanceof NotFoundError)) throw error;
      reason = error.message;
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
