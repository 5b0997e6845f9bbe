import { resolve } from 'node:path';

// Each variable switches one part to its server; none set is the embedded default.
export interface Config {
  /** Read model (and event store when no EVENTSTORE_URL). Unset: the embedded PostgreSQL. */
  databaseUrl: string | undefined;
  /** EventStoreDB / KurrentDB. Unset: the Postgres event store in the read-model database. */
  eventStoreUrl: string | undefined;
  /** BullMQ on Redis and the rate-limit store. Unset: BullMQ's PostgreSQL backend, in-memory limits. */
  redisUrl: string | undefined;
  port: number;
  host: string;
  dataDir: string;
  sessionSecret: string | undefined;
  demoPassword: string;
  /** The card provider's publishable key; Settings shows it masked. Unset: the built-in test provider. */
  stripePublishableKey: string | undefined;
  /** With the publishable key, switches payments from the built-in test provider to Stripe. */
  stripeSecretKey: string | undefined;
  /** Verifies the signatures of Stripe's webhooks at /api/stripe/webhook. */
  stripeWebhookSecret: string | undefined;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number.parseInt(env.PORT ?? '3000', 10);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    eventStoreUrl: env.EVENTSTORE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './.data'),
    sessionSecret: env.SESSION_SECRET || undefined,
    demoPassword: env.DEMO_PASSWORD || 'demo1234',
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY || undefined,
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
  };
}
