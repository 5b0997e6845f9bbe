import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';

// Every environment variable the product reads, in one schema, read once at start by the entry
// points (ops/src/cli.ts, api/src/main.ts, projector/src/main.ts) through loadConfig(). Each
// variable switches one part to its server; none set is the embedded default. An empty value
// counts as unset. Test-only variables (TEST_POSTGRES_URL, TEST_REDIS_URL, FUZZ_RUNS,
// CHROMIUM_PATH, SCREENSHOT_DIR) are not the product's: the test helpers read them themselves.

export type TrustProxy = boolean | number | string[];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEFAULT_DEMO_PASSWORD = 'demo1234';

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
  /** LOG_LEVEL: the least severe level logged (default info). */
  logLevel: LogLevel;
  /** PROJECTOR_HEALTH_PORT: where a projector process answers its health checks (default 3001). */
  projectorHealthPort: number;
  /** RESERVATION_HOLD_DAYS: how long a reservation holds its unit before it expires (default 7; fractions allowed). */
  reservationHoldDays: number;
  /** PAYMENT_GRACE_SECONDS, in ms: how long an intent is left to its own report before the reconciliation asks the provider (default 120 s). */
  paymentGraceMs: number;
  /** WORKFLOW_GRACE_SECONDS, in ms: how long a stopped workflow is left alone before it is finished or undone (default 300 s). */
  workflowGraceMs: number;
  /** DEBUG_EMBEDDED_POSTGRES: print the embedded PostgreSQL's own log lines (default off). */
  debugEmbeddedPostgres: boolean;
  /**
   * BILLING_SCHEDULE: when the projector runs the billing day, a cron pattern in UTC (default
   * hourly, `5 * * * *`, so each facility's day starts within the hour), or `off`: nothing bills
   * on its own (an install still importing its books; `ops billing:run` bills by hand).
   */
  billingSchedule: string | null;
  /** SMTP_URL: the SMTP server messages to renters are sent through. Unset: the development adapter (kept in the database only). */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the sender of messages to renters (required with SMTP_URL). */
  mailFrom: string | undefined;
  /** PUBLIC_URL: where renters reach the product, for the links in messages (default http://HOST:PORT). */
  publicUrl: string;
}

/** The settings of the projector's scheduled processes. */
export type ScheduleSettings = Pick<Config, 'reservationHoldDays' | 'paymentGraceMs' | 'workflowGraceMs' | 'billingSchedule'>;

/** The settings of messages to renters: the mail server, the sender, the links. */
export type MessageSettings = Pick<Config, 'smtpUrl' | 'mailFrom' | 'publicUrl'>;

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

// ---- the schema ----

/** An optional variable: unset and empty are the same. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
/** A variable with a default when unset or empty. */
const withDefault = <T extends z.ZodType>(schema: T, fallback: string) =>
  z.preprocess((value) => (value === undefined || value === '' ? fallback : value), schema);

const portNumber = z
  .string()
  .trim()
  .regex(/^\d+$/, 'must be a port number (1-65535)')
  .transform(Number)
  .refine((port) => port >= 1 && port <= 65535, 'must be a port number (1-65535)');

const nonNegativeNumber = (unit: string) =>
  z
    .string()
    .trim()
    .refine((text) => text !== '' && Number.isFinite(Number(text)) && Number(text) >= 0, `must be a number of ${unit} (0 or more)`)
    .transform(Number);

/** A duration in seconds, as milliseconds. */
const secondsAsMs = nonNegativeNumber('seconds').transform((seconds) => seconds * 1000);

const urlWithScheme = (schemes: string[], example: string) =>
  z.string().refine(
    (text) => {
      try {
        return schemes.includes(new URL(text).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    },
    `must be a ${schemes.join(':// or ')}:// URL, e.g. ${example}`,
  );

const keyWithPrefix = (prefixes: string[]) =>
  z
    .string()
    .trim()
    .refine((key) => prefixes.some((prefix) => key.startsWith(prefix)), `must start with ${prefixes.join(' or ')}`);

const booleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((text) => ['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off'].includes(text), 'must be true or false')
  .transform((text) => ['1', 'true', 'yes', 'on'].includes(text));

const EnvSchema = z.object({
  PORT: withDefault(portNumber, '3000'),
  HOST: withDefault(z.string().trim().min(1), '127.0.0.1'),
  DATA_DIR: withDefault(z.string(), './.data'),
  DATABASE_URL: optional(urlWithScheme(['postgres', 'postgresql'], 'postgres://user:password@host:5432/storage')),
  EVENTSTORE_URL: optional(
    urlWithScheme(
      ['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover', 'kurrent', 'kurrent+discover'],
      'esdb://admin:changeit@localhost:2113?tls=false',
    ),
  ),
  REDIS_URL: optional(urlWithScheme(['redis', 'rediss'], 'redis://127.0.0.1:6379')),
  SESSION_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
  DEMO_PASSWORD: withDefault(z.string().min(8, 'must be at least 8 characters'), DEFAULT_DEMO_PASSWORD),
  STRIPE_PUBLISHABLE_KEY: optional(keyWithPrefix(['pk_'])),
  STRIPE_SECRET_KEY: optional(keyWithPrefix(['sk_', 'rk_'])),
  STRIPE_WEBHOOK_SECRET: optional(keyWithPrefix(['whsec_'])),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx): TrustProxy => {
      try {
        return parseTrustProxy(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^TRUST_PROXY /, '') });
        return z.NEVER;
      }
    }),
  LOG_LEVEL: withDefault(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }), 'info'),
  PROJECTOR_HEALTH_PORT: withDefault(portNumber, '3001'),
  RESERVATION_HOLD_DAYS: withDefault(nonNegativeNumber('days'), '7'),
  PAYMENT_GRACE_SECONDS: withDefault(secondsAsMs, '120'),
  WORKFLOW_GRACE_SECONDS: withDefault(secondsAsMs, '300'),
  DEBUG_EMBEDDED_POSTGRES: withDefault(booleanFlag, 'false'),
  BILLING_SCHEDULE: withDefault(
    z
      .string()
      .trim()
      .refine((v) => v === 'off' || /^(\S+\s+){4}\S+$/.test(v), { message: 'must be a cron pattern of five fields (e.g. 5 * * * *) or off' })
      .transform((v) => (v === 'off' ? null : v)),
    '5 * * * *',
  ),
  SMTP_URL: optional(urlWithScheme(['smtp', 'smtps'], 'smtp://user:password@mail.example.com:587')),
  MAIL_FROM: optional(
    z
      .string()
      .trim()
      .regex(/^[^@\s<>]+@[^@\s<>]+$|^[^<>]*<[^@\s<>]+@[^@\s<>]+>$/, 'must be an address, e.g. Riverside Storage <office@riverside.example>'),
  ),
  PUBLIC_URL: optional(urlWithScheme(['http', 'https'], 'https://storage.example.com')),
});

/**
 * Half a pair would silently run something else (a Stripe secret key alone ran the test provider).
 * Checked on what is set, beside the schema, so these come with the other problems at once.
 */
function halfPairs(input: Record<string, string | undefined>): string[] {
  const set = (name: string) => (input[name] ?? '') !== '';
  const problems: string[] = [];
  const both = 'set both to take payments with Stripe, neither for the built-in test provider';
  if (set('STRIPE_SECRET_KEY') && !set('STRIPE_PUBLISHABLE_KEY')) problems.push(`STRIPE_PUBLISHABLE_KEY: is required with STRIPE_SECRET_KEY (${both})`);
  if (set('STRIPE_PUBLISHABLE_KEY') && !set('STRIPE_SECRET_KEY')) problems.push(`STRIPE_SECRET_KEY: is required with STRIPE_PUBLISHABLE_KEY (${both})`);
  if (set('STRIPE_WEBHOOK_SECRET') && !(set('STRIPE_SECRET_KEY') && set('STRIPE_PUBLISHABLE_KEY'))) {
    problems.push('STRIPE_WEBHOOK_SECRET: is set without STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY (the built-in test provider has no webhook)');
  }
  if (set('SMTP_URL') && !set('MAIL_FROM')) problems.push('MAIL_FROM: is required with SMTP_URL (the sender of messages to renters)');
  return problems;
}

/** The variables the schema reads, in its order (.env.example lists the same). */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape) as (keyof typeof EnvSchema.shape)[];

/** The configuration is wrong: `problems` names every variable at fault, one line each. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`The configuration is not valid (environment variables or .env):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export type ConfigVariable = (typeof CONFIG_VARIABLES)[number];

/** Variables a process cannot run without (the distributed processes), and why. */
export interface Requirements {
  required?: ConfigVariable[];
  /** Who requires them, for the message: e.g. 'npm run start:api'. */
  by?: string;
}

/** Reads the configuration from `env`; throws a ConfigError naming every wrong or missing variable at once. */
export function readConfig(env: NodeJS.ProcessEnv = process.env, requirements: Requirements = {}): Config {
  const input = Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, env[name]]));
  const missing = (requirements.required ?? [])
    .filter((name) => (input[name] ?? '') === '')
    .map((name) => `${name}: is required${requirements.by ? ` by ${requirements.by}` : ''}`);
  const parsed = EnvSchema.safeParse(input);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${String(issue.path[0] ?? 'configuration')}: ${issue.message}${shown(env, issue.path[0])}`)),
    ...halfPairs(input),
    ...missing,
  ];
  if (!parsed.success || problems.length) throw new ConfigError(problems);
  const v = parsed.data;
  return {
    databaseUrl: v.DATABASE_URL,
    eventStoreUrl: v.EVENTSTORE_URL,
    redisUrl: v.REDIS_URL,
    port: v.PORT,
    host: v.HOST,
    dataDir: resolve(v.DATA_DIR),
    sessionSecret: v.SESSION_SECRET,
    demoPassword: v.DEMO_PASSWORD,
    stripePublishableKey: v.STRIPE_PUBLISHABLE_KEY,
    stripeSecretKey: v.STRIPE_SECRET_KEY,
    stripeWebhookSecret: v.STRIPE_WEBHOOK_SECRET,
    trustProxy: v.TRUST_PROXY,
    logLevel: v.LOG_LEVEL,
    projectorHealthPort: v.PROJECTOR_HEALTH_PORT,
    reservationHoldDays: v.RESERVATION_HOLD_DAYS,
    paymentGraceMs: v.PAYMENT_GRACE_SECONDS,
    workflowGraceMs: v.WORKFLOW_GRACE_SECONDS,
    debugEmbeddedPostgres: v.DEBUG_EMBEDDED_POSTGRES,
    billingSchedule: v.BILLING_SCHEDULE,
    smtpUrl: v.SMTP_URL,
    mailFrom: v.MAIL_FROM,
    publicUrl: (v.PUBLIC_URL ?? `http://${v.HOST.includes(':') ? `[${v.HOST}]` : v.HOST}:${v.PORT}`).replace(/\/+$/, ''),
  };
}

/** The wrong value, except for secrets (never printed). */
function shown(env: NodeJS.ProcessEnv, name: PropertyKey | undefined): string {
  if (typeof name !== 'string' || /SECRET|PASSWORD|KEY|_URL$/.test(name)) return '';
  const value = env[name];
  return value === undefined || value === '' ? '' : ` (got ${JSON.stringify(value)})`;
}

/** A duration given in seconds elsewhere (a command's --grace-seconds), checked as the schema checks the variables. */
export function parseSecondsMs(name: string, raw: string): number {
  const parsed = secondsAsMs.safeParse(raw);
  if (!parsed.success) throw new ConfigError([`${name}: ${parsed.error.issues[0]!.message} (got ${JSON.stringify(raw)})`]);
  return parsed.data;
}

/**
 * Adds the variables of the `.env` file at `path` (when there is one) to `env`; a variable
 * already in `env` wins over the file, even when empty. Returns whether a file was read.
 */
export function loadEnvFile(path = '.env', env: NodeJS.ProcessEnv = process.env): boolean {
  if (!existsSync(path)) return false;
  const fromFile = parseEnv(readFileSync(path, 'utf8'));
  for (const [name, value] of Object.entries(fromFile)) {
    if (!(name in env)) env[name] = value;
  }
  return true;
}

/**
 * The entry points' one call at start: `.env` of the working directory (when present) under the
 * real environment, then the configuration. A wrong configuration ends the process with every
 * problem listed (exit code 1), not a stack trace.
 */
export function loadConfig(requirements: Requirements = {}): Config {
  try {
    loadEnvFile();
    return readConfig(process.env, requirements);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}
