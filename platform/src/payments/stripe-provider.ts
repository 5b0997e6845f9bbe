import { randomUUID } from 'node:crypto';
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
    clientSecret: intent.client_secret ?? null,
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
          // No invoiceId: a payment toward the renter's whole balance.
          metadata: intent.invoiceId ? { invoiceId: intent.invoiceId, customerId: intent.customerId } : { customerId: intent.customerId },
        },
        // Our own record of intents (payment-intents.ts) reuses the live intent of an invoice; this
        // key only makes the SDK's retries of this one creation the same intent.
        { idempotencyKey: `${intent.invoiceId ? `invoice-${intent.invoiceId}` : `account-${intent.customerId}`}-${randomUUID()}` },
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
    async cancelIntent(id) {
      try {
        await stripe.paymentIntents.cancel(id, { cancellation_reason: 'abandoned' });
      } catch (error) {
        // Already cancelled is what we asked for; anything else (it succeeded meanwhile) is the caller's to see.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && (await stripe.paymentIntents.retrieve(id)).status === 'canceled') return;
        throw error;
      }
    },
    async refund(intentId, amount, idempotencyKey, staffReason) {
      try {
        // Staff giving money back is the renter's request; our own refund of a charge no invoice could take is a duplicate.
        const why =
          staffReason === undefined
            ? { reason: 'duplicate' as const, metadata: { reason: 'invoice could not take this payment' } }
            : { reason: 'requested_by_customer' as const, metadata: { reason: staffReason } };
        const refund = await stripe.refunds.create({ payment_intent: intentId, amount: Number(toCents(amount)), ...why }, { idempotencyKey });
        return { id: refund.id };
      } catch (error) {
        // Stripe keeps idempotency keys for a day: a replay after that finds the charge refunded already.
        if (staffReason === undefined && error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'charge_already_refunded') {
          const [earlier] = (await stripe.refunds.list({ payment_intent: intentId, limit: 1 })).data;
          if (earlier) return { id: earlier.id };
        }
        throw error;
      }
    },
    verifyWebhook: webhookSecret ? (rawBody, signature) => stripe.webhooks.constructEvent(rawBody, signature, webhookSecret) : null,
  };
}
