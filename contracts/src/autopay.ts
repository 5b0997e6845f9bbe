import { z } from 'zod';
import { Id, IsoDate } from './fields.ts';
import { PaymentProviderName } from './payments.ts';

// Autopay (issue 13): a renter's saved cards and enrolment, and the off-session charges on due dates.

/** A saved card as the renter and staff see it: never its number, only the provider's brand, last 4 digits and expiry. */
export const SavedCard = z.object({
  id: Id,
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  /** True for the card autopay charges. */
  autopay: z.boolean(),
});
export type SavedCard = z.infer<typeof SavedCard>;

/** The latest autopay charge of an invoice, as staff see it. */
export const AutopayCharge = z.object({
  invoiceId: Id,
  attempt: z.number().int(),
  amount: z.string(),
  date: IsoDate,
  status: z.enum(['attempted', 'succeeded', 'failed']),
  reason: z.string().nullable(),
  requiresAction: z.boolean(),
  nextAttemptOn: IsoDate.nullable(),
  /** The invoice is still unpaid (sent or overdue): a failed charge leaves it to the renter to pay. */
  invoiceOpen: z.boolean(),
});
export type AutopayCharge = z.infer<typeof AutopayCharge>;

/** GET /api/customer/payment-methods (the renter's), GET /api/customers/{id}/payment-profile (staff's). */
export const PaymentProfile = z.object({
  cards: z.array(SavedCard),
  /** Autopay is on: the card named autopay is charged on each invoice's due date. */
  autopay: z.boolean(),
  /** The business's "Automatic Charging" setting: off, no renter is charged automatically. */
  automaticCharging: z.boolean(),
  /** Which card form the portal shows. */
  provider: PaymentProviderName,
  /** The latest autopay charge of each of the renter's invoices, newest first (at most 12). */
  charges: z.array(AutopayCharge),
});
export type PaymentProfile = z.infer<typeof PaymentProfile>;

/**
 * POST /api/customer/payment-methods: save a card. The built-in test provider takes the card
 * fields (as its checkout does: 4242 4242 4242 4242 charges, 4000 0000 0000 0002 is declined,
 * 4000 0025 0000 3155 needs the renter); Stripe takes the SetupIntent the browser confirmed with
 * Elements (POST /api/customer/payment-methods/setup made it).
 */
export const SaveCardRequest = z.strictObject({
  cardNumber: z.string().max(40, 'must be at most 40 characters').optional(),
  /** MM/YY */
  expiry: z.string().max(10, 'must be at most 10 characters').optional(),
  cvc: z.string().max(10, 'must be at most 10 characters').optional(),
  setupIntentId: z
    .string()
    .trim()
    .regex(/^seti_[A-Za-z0-9_]{1,200}$/, 'must be a setup intent id (seti_…)')
    .optional(),
  /** Turn autopay on with this card. */
  autopay: z.boolean().optional(),
});
export type SaveCardRequest = z.input<typeof SaveCardRequest>;

/** POST /api/customer/payment-methods/setup: what Stripe Elements needs to save a card (test provider: clientSecret null). */
export const CardSetup = z.object({ provider: PaymentProviderName, clientSecret: z.string().nullable() });
export type CardSetup = z.infer<typeof CardSetup>;

/** PUT /api/customer/autopay: on (with a saved card; the newest when none is named) or off. */
export const SetAutopayRequest = z.strictObject({ enabled: z.boolean(), paymentMethodId: Id.optional() });
export type SetAutopayRequest = z.input<typeof SetAutopayRequest>;

export const PaymentMethodParams = z.strictObject({ id: Id });
