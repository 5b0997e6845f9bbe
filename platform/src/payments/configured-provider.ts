import type { DatabasePool } from 'slonik';
import { createStripeProvider, type StripeProvider } from './stripe-provider.ts';
import { createTestProvider, type TestPaymentProvider } from './test-provider.ts';

/** The payment settings of the configuration (platform/src/config.ts names them the same). */
export interface PaymentSettings {
  /** STRIPE_PUBLISHABLE_KEY */
  stripePublishableKey?: string | undefined;
  /** STRIPE_SECRET_KEY: with the publishable key, Stripe takes payments instead of the test provider. */
  stripeSecretKey?: string | undefined;
  /** STRIPE_WEBHOOK_SECRET */
  stripeWebhookSecret?: string | undefined;
}

/**
 * The card provider the configuration names: Stripe when both of its keys are set, otherwise the
 * built-in test provider (its intents live in `pool`'s database). The one place that decides it,
 * for the API's routes and the projector's payment reconciliation alike.
 */
export function createPaymentProvider(settings: PaymentSettings, pool: DatabasePool): StripeProvider | TestPaymentProvider {
  const { stripeSecretKey, stripePublishableKey } = settings;
  return stripeSecretKey && stripePublishableKey
    ? createStripeProvider({ secretKey: stripeSecretKey, publishableKey: stripePublishableKey, webhookSecret: settings.stripeWebhookSecret })
    : createTestProvider(pool);
}
