import { isIP } from 'node:net';
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
  /**
   * Which peers may tell the client's address in X-Forwarded-For (Fastify's trustProxy): false
   * (unset: no forwarded header is believed), a hop count, addresses/CIDR ranges, or true.
   */
  trustProxy: TrustProxy;
}

export type TrustProxy = boolean | number | string[];

/** TRUST_PROXY: unset or `false` trusts no proxy; `true`; a hop count (`1`); or `10.0.0.1,10.1.0.0/16`. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number.parseInt(text, 10);
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const prefixOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new Error(`TRUST_PROXY must be true, a hop count or a comma-separated list of addresses/CIDR ranges, got ${JSON.stringify(entry)}`);
    }
  }
  return entries;
}

/** A duration setting in seconds (e.g. PAYMENT_GRACE_SECONDS), in milliseconds; unset or empty gives the default. */
export function secondsSettingMs(env: NodeJS.ProcessEnv, name: string, defaultSeconds: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return defaultSeconds * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) throw new Error(`${name} must be a number of seconds, got ${raw}`);
  return seconds * 1000;
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
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}
