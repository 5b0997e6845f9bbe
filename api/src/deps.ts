import type { EventStore, Position } from '@storage/eventstore/port';
import type { Mailer } from '@storage/platform/mail/port';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DatabasePool } from 'slonik';

/** What the API is built from; the composition root (embedded or distributed) provides it. */
export interface AppDeps {
  store: EventStore;
  pool: DatabasePool;
  /** The business clock (platform/src/business-clock.ts): every command's time and every report's today. */
  clock: { now(): Date };
  /** 32-byte key of the session cookie. */
  sessionKey: Buffer;
  /** Wakes the projector after an append and waits (bounded) until the read model shows it. */
  afterAppend(position: Position): Promise<void>;
  /** Where owners' read-model rebuilds and verifications are queued for the projector. */
  readModelJobs: Queue;
  /** Shared rate-limit store across API replicas; in-memory when absent. */
  redis?: Redis;
  /** Built front ends to serve; absent in API-only tests. */
  staticRoots?: { console: string; portal: string };
  logger?: boolean | object;
  /** STRIPE_PUBLISHABLE_KEY from the configuration; absent when the built-in test provider takes payments. */
  stripePublishableKey?: string;
  /** STRIPE_SECRET_KEY: with the publishable key, Stripe takes payments instead of the test provider. */
  stripeSecretKey?: string;
  /** STRIPE_WEBHOOK_SECRET: verifies the signature of Stripe's webhooks. */
  stripeWebhookSecret?: string;
  /** TRUST_PROXY: which peers' X-Forwarded-For gives the client's address; absent trusts none. */
  trustProxy?: boolean | number | string[];
  /** PUBLIC_URL: where renters reach the product, for the links in messages (previews, letters). */
  publicUrl?: string;
  /** Sends what cannot wait for the outbox (the portal gate's sign-in codes); absent: the development mailer. */
  mailer?: Mailer;
}
