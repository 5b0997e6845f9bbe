import { fromCents, toCents } from '@storage/contracts/money';
import Stripe from 'stripe';
import { PAYMENT_CURRENCY, type PaymentProvider, type ProviderPaymentIntent } from './provider.ts';

const REQUEST_TIMEOUT_MS = 10_000;

function toProviderIntent(intent: Stripe.PaymentIntent): ProviderPaymentIntent {
  return {
    id: intent.id,
    status: intent.status,
    amount: fromCents(BigInt(intent.amount)),
    currency: intent.currency,
    invoiceId: intent.metadata.invoiceId ?? null,
    customerId: intent.metadata.customerId ?? null,
  };
}

export interface StripeProvider extends PaymentProvider {
  /** The event of a webhook whose `Stripe-Signature` matches the webhook secret, else throws; null without a secret. */
  verifyWebhook: ((rawBody: Buffer, signature: string) => Stripe.Event) | null;
}

export function createStripeProvider(keys: { secretKey: string; publishableKey: string; webhookSecret: string | undefined }): StripeProvider {
  const stripe = new Stripe(keys.secretKey, { timeout: REQUEST_TIMEOUT_MS, maxNetworkRetries: 2 });
  const { webhookSecret } = keys;
  return {
    name: 'stripe',
    publishableKey: keys.publishableKey,
    async createIntent(intent) {
      const created = await stripe.paymentIntents.create(
        {
          amount: Number(toCents(intent.amount)),
          currency: PAYMENT_CURRENCY,
          automatic_payment_methods: { enabled: true },
          receipt_email: intent.customerEmail,
          metadata: { invoiceId: intent.invoiceId, customerId: intent.customerId },
        },
        // One open intent per invoice and balance: a double click or a reload reuses it for a day.
        { idempotencyKey: `invoice-${intent.invoiceId}-${intent.amount}-${new Date().toISOString().slice(0, 10)}` },
      );
      if (!created.client_secret) throw new Error(`Stripe created payment intent ${created.id} without a client secret`);
      return { id: created.id, clientSecret: created.client_secret };
    },
    async retrieveIntent(id) {
      try {
        return toProviderIntent(await stripe.paymentIntents.retrieve(id));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return null;
        throw error;
      }
    },
    verifyWebhook: webhookSecret ? (rawBody, signature) => stripe.webhooks.constructEvent(rawBody, signature, webhookSecret) : null,
  };
}
