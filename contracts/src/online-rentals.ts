import { z } from 'zod';
import { UnitSize } from './enums.ts';
import { Id, IsoDate } from './fields.ts';
import { DocumentSha256, SignLeaseRequest } from './lease-signatures.ts';
import { ConfirmTestPaymentRequest } from './payments.ts';
import { PublicMoveInQuote } from './quotes.ts';

// Finishing an online reservation online: the link mailed to confirm the reservation (its token)
// is the renter's key; they choose a protection plan and a promotion, sign the agreement those
// choices make, pay the move-in by card, and the payment moves them in
// (domain/src/reservations/online-rental.ts).

/** The mailed link's token: only the mailbox's owner has it. */
const Token = z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters');

/** POST /api/public/rentals/offer and /agreement: the reservation's link and the choices. */
export const RentalChoicesRequest = z.strictObject({
  token: Token,
  protectionPlanId: Id.nullish().transform((v) => v ?? null),
  promotionId: Id.nullish().transform((v) => v ?? null),
});
export type RentalChoicesRequest = z.input<typeof RentalChoicesRequest>;

/**
 * POST /api/public/rentals/checkout: the choices and the renter's signature of the agreement they
 * make (its hash as /agreement showed it: a rental is paid for only once its agreement is signed).
 */
export const RentalCheckoutRequest = RentalChoicesRequest.extend({
  signature: SignLeaseRequest.extend({ documentSha256: DocumentSha256 }),
});
export type RentalCheckoutRequest = z.input<typeof RentalCheckoutRequest>;

const RentalUnit = z.object({ unitNumber: z.string(), building: z.string(), size: UnitSize, facilityName: z.string().nullable() });

/** What finishing the rental online costs with these choices. */
export const RentalOffer = z.object({ reservationId: Id, unit: RentalUnit, moveInDate: IsoDate, quote: PublicMoveInQuote });
export type RentalOffer = z.infer<typeof RentalOffer>;

/** POST /api/public/rentals/checkout: pay this amount by card (the provider's client secret), or nothing (moved in already). */
export const RentalCheckout = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('pay'),
    paymentIntentId: z.string(),
    clientSecret: z.string(),
    amount: z.string(),
    provider: z.enum(['test', 'stripe']),
    publishableKey: z.string().nullable(),
  }),
  z.object({ kind: z.literal('rented') }),
  z.object({ kind: z.literal('paid'), paymentIntentId: z.string() }),
]);
export type RentalCheckout = z.infer<typeof RentalCheckout>;

/** POST /api/public/rentals/complete: the card payment the renter's page saw succeed. */
export const CompleteRentalRequest = z.strictObject({ token: Token, paymentIntentId: z.string().trim().min(1, 'is required').max(255) });
export type CompleteRentalRequest = z.input<typeof CompleteRentalRequest>;

/** POST /api/public/rentals/status: the token alone. */
export const RentalStatusRequest = z.strictObject({ token: Token });

/** Where the online rental stands: rented (the gate code once assigned), refunded, or still open. */
export const RentalStatus = z.object({
  status: z.enum(['open', 'rented', 'refunded', 'closed']),
  reservationId: Id,
  unit: RentalUnit,
  moveInDate: IsoDate,
  /** The renter's gate code (rented, once assigned: a moment after the move-in). */
  gateCode: z.string().nullable(),
  /** When the gate lets the renter in, in words (accessHoursWords): '24/7' or '6:00 AM – 10:00 PM every day'. */
  accessHours: z.string(),
  /** Whether the renter signed the lease agreement (rented only). */
  signed: z.boolean(),
  message: z.string(),
});
export type RentalStatus = z.infer<typeof RentalStatus>;

/** POST /api/public/rentals/test-payment: the built-in test provider's card form for a rental's payment (no portal session yet). */
export const RentalTestPaymentRequest = z.strictObject({
  token: Token,
  paymentIntentId: z.string().trim().min(1, 'is required').max(255),
  card: ConfirmTestPaymentRequest,
});
export type RentalTestPaymentRequest = z.input<typeof RentalTestPaymentRequest>;

/** POST /api/public/rentals/signature: the renter signs the lease the payment made (the link's token is their key). */
export const RentalSignatureRequest = SignLeaseRequest.extend({ token: Token });
export type RentalSignatureRequest = z.input<typeof RentalSignatureRequest>;
