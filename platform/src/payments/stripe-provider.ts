import { randomUUID } from 'node:crypto';
import { fromCents, toCents } from '@storage/contracts/money';
import Stripe from 'stripe';
import { type CardOwner, CardRefusedError, type OffSessionOutcome, PAYMENT_CURRENCY, type PaymentProvider, type ProviderPaymentIntent } from './provider.ts';

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
    // Saved cards and off-session charges (autopay). Written against Stripe's API documentation
    // (Customers, SetupIntents, PaymentIntents with off_session and confirm): Stripe's servers
    // cannot be reached from the development machines, so this path has not been run against them.
    async startCardSetup(renter) {
      const customer = await stripeCustomerOf(stripe, renter);
      const setup = await stripe.setupIntents.create(
        { customer, usage: 'off_session', allowed_payment_method_types: ['card'], metadata: { customerId: renter.customerId } },
        { idempotencyKey: `setup-${renter.customerId}-${randomUUID()}` },
      );
      return { clientSecret: setup.client_secret };
    },
    async saveCard(renter, card) {
      if (!('setupIntentId' in card)) throw new CardRefusedError('With Stripe, a card is saved through Stripe Elements');
      const setup = await stripe.setupIntents.retrieve(card.setupIntentId, { expand: ['payment_method'] });
      // The browser's word is not taken: the SetupIntent must be this renter's, and confirmed.
      if (setup.metadata?.customerId !== renter.customerId) throw new CardRefusedError('This card setup belongs to another customer');
      if (setup.status !== 'succeeded')
        throw new CardRefusedError(setup.last_setup_error?.message ?? `The card was not saved (Stripe reports it ${setup.status})`);
      const method = setup.payment_method;
      if (!method || typeof method === 'string' || !method.card) throw new CardRefusedError('The saved payment method is not a card');
      const customer = typeof setup.customer === 'string' ? setup.customer : setup.customer?.id;
      if (!customer) throw new CardRefusedError('The card setup has no customer');
      return {
        providerCustomerId: customer,
        providerPaymentMethodId: method.id,
        brand: method.card.brand,
        last4: method.card.last4,
        expMonth: method.card.exp_month,
        expYear: method.card.exp_year,
      };
    },
    async removeCard(providerPaymentMethodId) {
      try {
        await stripe.paymentMethods.detach(providerPaymentMethodId);
      } catch (error) {
        // Detached already (or gone): what we asked for.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
        throw error;
      }
    },
    async findSavedCardCharge(idempotencyKey) {
      // Our key rides in the intent's metadata (Stripe keeps idempotency keys for a day only).
      const found = await stripe.paymentIntents.search({ query: `metadata['autopayKey']:'${idempotencyKey}'`, limit: 1 });
      const intent = found.data[0];
      return intent ? offSessionOutcomeOf(intent) : null;
    },
    async chargeSavedCard(charge): Promise<OffSessionOutcome> {
      try {
        // Stripe answers a repeated idempotency key (for 24 hours) with the first answer, errors included.
        const intent = await stripe.paymentIntents.create(
          {
            amount: Number(toCents(charge.amount)),
            currency: PAYMENT_CURRENCY,
            customer: charge.providerCustomerId,
            payment_method: charge.providerPaymentMethodId,
            off_session: true,
            confirm: true,
            metadata: { invoiceId: charge.invoiceId, customerId: charge.customerId, autopayKey: charge.idempotencyKey },
          },
          { idempotencyKey: charge.idempotencyKey },
        );
        return offSessionOutcomeOf(intent);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          const intentId = error.payment_intent?.id ?? null;
          // authentication_required: the bank wants 3-D Secure, which only the renter can do.
          if (error.code === 'authentication_required') return { status: 'requires_action', intentId, reason: error.message };
          return { status: 'failed', intentId, reason: error.message };
        }
        // The key was used with other parameters (the card changed after a crash): the charge made under it answers.
        if (error instanceof Stripe.errors.StripeIdempotencyError) {
          const made = await this.findSavedCardCharge(charge.idempotencyKey);
          if (made) return made;
        }
        throw error;
      }
    },
    verifyWebhook: webhookSecret ? (rawBody, signature) => stripe.webhooks.constructEvent(rawBody, signature, webhookSecret) : null,
  };
}

/** The renter's Stripe Customer: found by our customer id in its metadata, else created (the key makes a retried creation the same Customer). */
async function stripeCustomerOf(stripe: Stripe, renter: CardOwner): Promise<string> {
  const found = await stripe.customers.search({ query: `metadata['customerId']:'${renter.customerId}'`, limit: 1 });
  if (found.data[0]) return found.data[0].id;
  const created = await stripe.customers.create(
    { email: renter.email, metadata: { customerId: renter.customerId } },
    { idempotencyKey: `customer-${renter.customerId}` },
  );
  return created.id;
}

function offSessionOutcomeOf(intent: Stripe.PaymentIntent): OffSessionOutcome {
  if (intent.status === 'succeeded') return { status: 'succeeded', intentId: intent.id };
  if (intent.status === 'processing') return { status: 'processing', intentId: intent.id };
  if (intent.status === 'requires_action')
    return { status: 'requires_action', intentId: intent.id, reason: 'The card needs the renter to confirm the payment' };
  return { status: 'failed', intentId: intent.id, reason: intent.last_payment_error?.message ?? `Stripe reports the payment ${intent.status}` };
}
