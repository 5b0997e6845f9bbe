import { z } from 'zod';
import { PaymentMethod } from './enums.ts';
import type { EventData } from './events.ts';
import { Email, Id, IsoDate } from './fields.ts';
import { Money, PaymentAmount } from './money.ts';

/** Who takes card payments: Stripe when its keys are configured, else the built-in test provider. */
export const PaymentProviderName = z.enum(['stripe', 'test']);
export type PaymentProviderName = z.infer<typeof PaymentProviderName>;

/** GET /api/payments/config: which card form the checkout shows. */
export const PaymentConfig = z.object({
  provider: PaymentProviderName,
  /** Stripe's publishable key; null under the test provider. */
  publishableKey: z.string().nullable(),
});
export type PaymentConfig = z.infer<typeof PaymentConfig>;

/** A payment intent id as Stripe and the test provider write it (pi_…). */
export const PaymentIntentId = z
  .string()
  .trim()
  .regex(/^pi_[A-Za-z0-9_]{1,200}$/, 'must be a payment intent id (pi_…)');

/**
 * POST /api/create-payment-intent. The amount is the browser's view of the bill and is not
 * trusted: the intent is always for the invoice's open balance.
 */
export const CreatePaymentIntentRequest = z.strictObject({
  amount: Money.optional(),
  invoiceId: Id,
  customerEmail: Email.optional(),
});
export type CreatePaymentIntentRequest = z.input<typeof CreatePaymentIntentRequest>;

export const CreatePaymentIntentResponse = z.object({
  clientSecret: z.string(),
  paymentIntentId: z.string(),
  /** The open balance the intent charges. */
  amount: z.string(),
});
export type CreatePaymentIntentResponse = z.infer<typeof CreatePaymentIntentResponse>;

/** POST /api/test-provider/payment-intents/{id}/confirm: the test provider's card form. */
export const ConfirmTestPaymentRequest = z.strictObject({
  cardNumber: z.string().max(40, 'must be at most 40 characters'),
  /** MM/YY */
  expiry: z.string().max(10, 'must be at most 10 characters'),
  cvc: z.string().max(10, 'must be at most 10 characters'),
});
export type ConfirmTestPaymentRequest = z.input<typeof ConfirmTestPaymentRequest>;

/** As Stripe's confirmCardPayment answers: the intent's status, and the provider's message when it failed. */
export const ConfirmTestPaymentResponse = z.object({
  paymentIntentId: z.string(),
  status: z.enum(['succeeded', 'requires_payment_method']),
  error: z.object({ message: z.string() }).nullable(),
});
export type ConfirmTestPaymentResponse = z.infer<typeof ConfirmTestPaymentResponse>;

/**
 * POST /api/stripe/webhook/simulate: the browser's report that a payment went through. Only the
 * intent id counts; the rest is checked against what the provider says about the intent.
 */
export const SimulateWebhookRequest = z.strictObject({
  paymentIntentId: PaymentIntentId,
  invoiceId: Id.optional(),
  customerId: Id.optional(),
  customerEmail: Email.optional(),
  /** Sent instead of the three above when the checkout's session storage lost them. */
  fallbackEmail: Email.optional(),
});
export type SimulateWebhookRequest = z.input<typeof SimulateWebhookRequest>;

/**
 * POST /api/customer/account-payment-intent: pay an amount of the renter's choosing toward their
 * whole balance, from the minimum due up to the whole balance (GET /api/customer/account says
 * both); the server spreads it over the open invoices, oldest first, when it succeeds.
 */
export const CreateAccountPaymentIntentRequest = z.strictObject({ amount: PaymentAmount });
export type CreateAccountPaymentIntentRequest = z.input<typeof CreateAccountPaymentIntentRequest>;

/**
 * What a renter's card payment did to their gate access. restored: it ended their lockout and
 * their gate codes open again; restoring: it brought the past-due balance low enough, and the
 * lockout is being lifted (a reaction to the payment, within seconds); suspended: they are locked
 * out and still owe too much past due for it to end.
 */
export const PaymentAccess = z.enum(['restored', 'restoring', 'suspended']);
export type PaymentAccess = z.infer<typeof PaymentAccess>;

/** One invoice a payment paid, and how much of it. */
export const PaymentApplied = z.object({ invoiceId: Id, invoiceNumber: z.string(), amount: z.string() });
export type PaymentApplied = z.infer<typeof PaymentApplied>;

/** A card payment on the renter's books, as their portal session may read it (the answer to a report, the receipt). */
export const PaymentSummary = z.object({
  /** What the card was charged. */
  amount: z.string(),
  /** The business day it was recorded on. */
  paidDate: IsoDate,
  /** The invoices it paid, in the order it paid them. */
  applied: z.array(PaymentApplied),
  /** What no invoice took: credit on the account, which the next invoice uses. */
  credited: z.string(),
  /** The renter's open balance now, after it (as GET /api/customer/account says). */
  balance: z.string(),
  /** Credit on the renter's account now. */
  credit: z.string(),
  /** Null: the renter was not locked out. */
  access: PaymentAccess.nullable(),
});
export type PaymentSummary = z.infer<typeof PaymentSummary>;

export const PaymentRecordedResponse = z.object({
  paymentIntentId: z.string(),
  /** Null for a payment toward the whole balance (spread over the open invoices). */
  invoiceId: Id.nullable(),
  /** False when this intent's payment was already recorded (a replay), or was refunded. */
  recorded: z.boolean(),
  /** True when the invoice could not take this charge (already paid, cancelled, or not its open balance), so it was refunded. */
  refunded: z.boolean(),
  /**
   * What the payment did, only for the portal session of the renter who paid (anyone may report a
   * payment); null for any other caller, and for a payment not on the books (refunded).
   */
  summary: PaymentSummary.nullable(),
});

export type PaymentRecordedResponse = z.infer<typeof PaymentRecordedResponse>;

/**
 * Where the renter's portal session downloads the receipt of one of their payments (a PDF): by
 * its id in their payments list, or by the intent id of a card payment they just made.
 */
export function paymentReceiptPath(paymentId: string): string {
  return `/api/customer/payments/${encodeURIComponent(paymentId)}/receipt.pdf`;
}

/** GET /api/customer/payments/{paymentId}/receipt.pdf */
export const PaymentReceiptParams = z.strictObject({
  paymentId: z
    .string()
    .trim()
    .refine((id) => Id.safeParse(id).success || PaymentIntentId.safeParse(id).success, 'must be a payment id, or a payment intent id (pi_…)'),
});

/** What became of a payment the renter made: kept, or (partly) given back to them by staff. */
export const PortalPaymentStatus = z.enum(['paid', 'partly_refunded', 'refunded']);
export type PortalPaymentStatus = z.infer<typeof PortalPaymentStatus>;

export const portalPaymentStatusLabels: Record<PortalPaymentStatus, string> = {
  paid: 'Paid',
  partly_refunded: 'Partly refunded',
  refunded: 'Refunded',
};

/** One invoice a payment paid, with its words (the period it bills), and how much of it (invoiceId null: an invoice the read model lost). */
export const PortalPaymentApplied = z.object({ invoiceId: Id.nullable(), invoiceNumber: z.string(), description: z.string().nullable(), amount: z.string() });
export type PortalPaymentApplied = z.infer<typeof PortalPaymentApplied>;

/**
 * A payment on the renter's account, as their portal session lists it: one per payment they
 * made (a desk payment over several invoices is one), card or desk alike.
 */
export const PortalPayment = z.object({
  /** The payment's id: its receipt is at paymentReceiptPath(id). */
  id: Id,
  /** The business day it was recorded on. */
  paidDate: IsoDate,
  /** What the renter paid. */
  amount: z.string(),
  /** How it was paid, as recorded; null when the record does not say (a payment no invoice took). */
  method: PaymentMethod.nullable(),
  methodLabel: z.string().nullable(),
  /** The invoices it paid, in the order it paid them. */
  applied: z.array(PortalPaymentApplied),
  /** What no invoice took: kept as credit on the account. */
  credited: z.string(),
  /** What staff gave back of it. */
  refunded: z.string(),
  status: PortalPaymentStatus,
  statusLabel: z.string(),
  /** Where its receipt downloads (a PDF). */
  receiptUrl: z.string(),
});
export type PortalPayment = z.infer<typeof PortalPayment>;

/** How many payments GET /api/customer/payments lists: the newest. */
export const PORTAL_PAYMENTS_SHOWN = 100;

/** Why a card charge was given back, in a manager's words (invoice history, activity feed, notifications). */
export const refundReasonWords: Record<EventData<'payment_refunded'>['reason'], string> = {
  invoice_already_paid: 'the invoice was already paid',
  invoice_cancelled: 'the invoice was cancelled',
  amount_not_balance: "the charge was not the invoice's open balance",
};
