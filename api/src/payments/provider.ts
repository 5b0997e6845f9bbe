import type { PaymentProviderName } from '@storage/contracts/payments';

/** What our side asks of a payment intent; ids and metadata as the provider keeps them. */
export interface ProviderPaymentIntent {
  id: string;
  /** Stripe's statuses; the test provider uses 'requires_payment_method' and 'succeeded'. */
  status: string;
  /** Decimal string ("120.00"). */
  amount: string;
  currency: string;
  /** Set when the intent was created for an invoice of ours. */
  invoiceId: string | null;
  customerId: string | null;
}

export interface NewPaymentIntent {
  /** Decimal string: always the invoice's open balance. */
  amount: string;
  invoiceId: string;
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
}

export const PAYMENT_CURRENCY = 'usd';
