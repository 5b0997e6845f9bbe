import type { PaymentProviderName } from '@storage/contracts/payments';

/** What our side asks of a payment intent; ids and metadata as the provider keeps them. */
export interface ProviderPaymentIntent {
  id: string;
  /** Stripe's statuses; the test provider uses 'requires_payment_method' and 'succeeded'. */
  status: string;
  /** Decimal string ("120.00"). */
  amount: string;
  currency: string;
  /** Set when the intent was created for an invoice of ours; null for a payment toward the whole balance (customerId set). */
  invoiceId: string | null;
  customerId: string | null;
  /** What the browser needs to confirm the intent; null when the provider does not say. */
  clientSecret: string | null;
}

/** Statuses of an intent that can still take money (Stripe's; the test provider uses the first). */
export const PAYABLE_INTENT_STATUSES: ReadonlySet<string> = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing']);

export interface NewPaymentIntent {
  /** Decimal string: the invoice's open balance, or the amount the renter chose toward their balance. */
  amount: string;
  /** Null: a payment toward the renter's whole balance, which the server spreads over their invoices. */
  invoiceId: string | null;
  customerId: string;
  customerEmail: string;
}

/** The port every card provider implements; the server asks it, never the browser, whether a payment went through. */
export interface PaymentProvider {
  name: PaymentProviderName;
  publishableKey: string | null;
  createIntent(intent: NewPaymentIntent): Promise<{ id: string; clientSecret: string }>;
  /** The intent as the provider knows it; null when it has no such intent. */
  retrieveIntent(id: string): Promise<ProviderPaymentIntent | null>;
  /** Cancels an intent that has not taken money, so it never can; a no-op for one already cancelled. */
  cancelIntent(id: string): Promise<void>;
  /**
   * Gives back `amount` (decimal string) of a succeeded intent. The idempotency key makes a
   * repeated call (a replay, a race, a retry after a crash) the same refund, never a second one.
   */
  refund(intentId: string, amount: string, idempotencyKey: string, staffReason?: string): Promise<{ id: string }>;

  // --- Saved cards and off-session charges (autopay) ---
  /** What the browser needs to save a card: Stripe makes (or finds) the renter's Customer and a SetupIntent; the test provider needs nothing. */
  startCardSetup(renter: CardOwner): Promise<{ clientSecret: string | null }>;
  /**
   * Saves a card for off-session charges: the test provider from the card fields (never kept),
   * Stripe from the SetupIntent the browser confirmed. Throws CardRefusedError with the
   * provider's message when the card cannot be saved.
   */
  saveCard(renter: CardOwner, card: CardToSave, today: Date): Promise<SavedCardDetails>;
  /** Forgets a saved card at the provider (Stripe: detaches it); a no-op for one already gone. */
  removeCard(providerPaymentMethodId: string): Promise<void>;
  /**
   * Charges a saved card off-session. The idempotency key makes a repeated call (a retry after a
   * crash, a second replica) the same charge with the same outcome, never a second one.
   */
  chargeSavedCard(charge: OffSessionCharge): Promise<OffSessionOutcome>;
  /** The off-session charge made under this idempotency key, as chargeSavedCard answered it; null when none was made. */
  findSavedCardCharge(idempotencyKey: string): Promise<OffSessionOutcome | null>;
}

export interface CardOwner {
  customerId: string;
  email: string;
}

/** The test provider's card fields, or the SetupIntent Stripe Elements confirmed. */
export type CardToSave = { cardNumber: string; expiry: string; cvc: string } | { setupIntentId: string };

/** A saved card as the provider keeps it: references and what may be shown, never the number. */
export interface SavedCardDetails {
  providerCustomerId: string;
  providerPaymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface OffSessionCharge {
  /** Decimal string. */
  amount: string;
  invoiceId: string;
  customerId: string;
  providerCustomerId: string;
  providerPaymentMethodId: string;
  idempotencyKey: string;
}

export type OffSessionOutcome =
  /** The money was taken: intentId is a payment intent retrieveIntent knows, of this invoice and customer. */
  | { status: 'succeeded'; intentId: string }
  /** The card needs the renter (3-D Secure): only they can pay, on-session. */
  | { status: 'requires_action'; intentId: string | null; reason: string }
  /** Declined (or otherwise refused): the provider's message. */
  | { status: 'failed'; intentId: string | null; reason: string }
  /** Under way at the provider (a bank debit): asked again later under the same key. */
  | { status: 'processing'; intentId: string };

/** The provider refused to save a card; its message is for the renter. */
export class CardRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CardRefusedError';
  }
}

/** The one idempotency key of an autopay attempt: the invoice and the attempt's number. */
export function autopayKeyOf(invoiceId: string, attempt: number): string {
  return `autopay-${invoiceId}-${attempt}`;
}

/**
 * A refund staff give (with `staffReason`) is named by its own id, so a retry of the same refund
 * is the one refund at the provider and two refunds of one payment are two.
 */
export function staffRefundKeyOf(refundId: string): string {
  return `staff-refund-${refundId}`;
}

/** The one idempotency key of the refund of an intent's charge: an intent is refunded at most once. */
export function refundKeyOf(intentId: string): string {
  return `refund-${intentId}`;
}

export const PAYMENT_CURRENCY = 'usd';
