import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CONFIG_VARIABLES,
  ConfigError,
  type ConfigVariable,
  DEFAULT_DEMO_PASSWORD,
  loadEnvFile,
  parseSecondsMs,
  parseTrustProxy,
  readConfig,
} from './config.ts';

describe('TRUST_PROXY', () => {
  it('trusts no forwarded header when unset, empty or false', () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
  });

  it('takes true only when spelled out, a hop count, or addresses and CIDR ranges', () => {
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.1, 10.1.0.0/16,::1,fd00::/8')).toEqual(['10.0.0.1', '10.1.0.0/16', '::1', 'fd00::/8']);
  });

  it('refuses anything else, naming the bad entry', () => {
    for (const bad of ['yes', '10.0.0.300', '10.0.0.0/33', 'proxy.example.com', '10.0.0.1,,10.0.0.2', '1.2.3.4/8/1']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
    }
  });
});

describe('readConfig', () => {
  it('gives every variable its default when none is set, and takes empty as unset', () => {
    const defaults = {
      databaseUrl: undefined,
      eventStoreUrl: undefined,
      redisUrl: undefined,
      port: 3000,
      host: '127.0.0.1',
      dataDir: resolve('./.data'),
      sessionSecret: undefined,
      demoPassword: DEFAULT_DEMO_PASSWORD,
      stripePublishableKey: undefined,
      stripeSecretKey: undefined,
      stripeWebhookSecret: undefined,
      trustProxy: false,
      logLevel: 'info',
      projectorHealthPort: 3001,
      reservationHoldDays: 7,
      paymentGraceMs: 120_000,
      workflowGraceMs: 300_000,
      debugEmbeddedPostgres: false,
      billingSchedule: '5 * * * *',
      smtpUrl: undefined,
      mailFrom: undefined,
      publicUrl: 'http://127.0.0.1:3000',
    };
    expect(readConfig({})).toEqual(defaults);
    expect(readConfig(Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, ''])))).toEqual(defaults);
  });

  it('reads every variable when set', () => {
    const config = readConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/storage',
      DATABASE_URL: 'postgres://app:pw@db:5432/storage',
      EVENTSTORE_URL: 'esdb://admin:changeit@kurrent:2113?tls=false',
      REDIS_URL: 'redis://redis:6379',
      SESSION_SECRET: 'x'.repeat(32),
      DEMO_PASSWORD: 'another-demo',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_abc',
      STRIPE_SECRET_KEY: 'sk_live_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'debug',
      PROJECTOR_HEALTH_PORT: '9100',
      RESERVATION_HOLD_DAYS: '0.5',
      PAYMENT_GRACE_SECONDS: '0',
      WORKFLOW_GRACE_SECONDS: '30',
      BILLING_SCHEDULE: 'off',
      DEBUG_EMBEDDED_POSTGRES: 'true',
      SMTP_URL: 'smtps://mailer:pw@mail.example.com:465',
      MAIL_FROM: 'office@riverside.example',
      PUBLIC_URL: 'https://storage.example.com',
    });
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/storage',
      databaseUrl: 'postgres://app:pw@db:5432/storage',
      eventStoreUrl: 'esdb://admin:changeit@kurrent:2113?tls=false',
      redisUrl: 'redis://redis:6379',
      sessionSecret: 'x'.repeat(32),
      demoPassword: 'another-demo',
      stripePublishableKey: 'pk_live_abc',
      stripeSecretKey: 'sk_live_abc',
      stripeWebhookSecret: 'whsec_abc',
      trustProxy: 1,
      logLevel: 'debug',
      projectorHealthPort: 9100,
      reservationHoldDays: 0.5,
      paymentGraceMs: 0,
      workflowGraceMs: 30_000,
      billingSchedule: null,
      debugEmbeddedPostgres: true,
      smtpUrl: 'smtps://mailer:pw@mail.example.com:465',
      mailFrom: 'office@riverside.example',
      publicUrl: 'https://storage.example.com',
    });
  });

  const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
    try {
      readConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    throw new Error('readConfig accepted it');
  };

  it.each([
    ['PORT', '0'],
    ['PORT', '70000'],
    ['PORT', 'http'],
    ['PROJECTOR_HEALTH_PORT', '-1'],
    ['DATABASE_URL', 'mysql://db/storage'],
    ['DATABASE_URL', 'not a url'],
    ['EVENTSTORE_URL', 'http://kurrent:2113'],
    ['REDIS_URL', 'localhost:6379'],
    ['SESSION_SECRET', 'short'],
    ['DEMO_PASSWORD', 'abc'],
    ['TRUST_PROXY', 'yes'],
    ['LOG_LEVEL', 'verbose'],
    ['RESERVATION_HOLD_DAYS', 'a week'],
    ['RESERVATION_HOLD_DAYS', '-1'],
    ['PAYMENT_GRACE_SECONDS', '2m'],
    ['WORKFLOW_GRACE_SECONDS', '-5'],
    ['DEBUG_EMBEDDED_POSTGRES', 'maybe'],
  ])('refuses %s=%s, naming it', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}: `));
  });

  it('refuses Stripe keys of the wrong kind, naming each, without printing them', () => {
    const problems = problemsOf({ STRIPE_PUBLISHABLE_KEY: 'sk_live_secret', STRIPE_SECRET_KEY: 'pk_live_public', STRIPE_WEBHOOK_SECRET: 'secret' });
    expect(problems.map((problem) => problem.split(':')[0])).toEqual(['STRIPE_PUBLISHABLE_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
    expect(problems.join('\n')).not.toMatch(/sk_live_secret|pk_live_public/);
  });

  it('lists every problem at once, not the first only', () => {
    const problems = problemsOf({ PORT: 'eighty', LOG_LEVEL: 'loud', REDIS_URL: 'nowhere', PAYMENT_GRACE_SECONDS: 'soon', STRIPE_SECRET_KEY: 'sk_test_1' });
    expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual([
      'LOG_LEVEL',
      'PAYMENT_GRACE_SECONDS',
      'PORT',
      'REDIS_URL',
      'STRIPE_PUBLISHABLE_KEY',
    ]);
    expect(() => readConfig({ PORT: 'eighty', LOG_LEVEL: 'loud' })).toThrow(/PORT: must be a port number[\s\S]*LOG_LEVEL: must be one of/);
    expect(() => readConfig({ PORT: 'eighty' })).toThrow(/got "eighty"/);
  });

  it('refuses each half-configured Stripe pair, and a webhook secret without the keys', () => {
    expect(problemsOf({ STRIPE_SECRET_KEY: 'sk_test_1' })).toEqual([expect.stringMatching(/^STRIPE_PUBLISHABLE_KEY: is required with STRIPE_SECRET_KEY/)]);
    expect(problemsOf({ STRIPE_PUBLISHABLE_KEY: 'pk_test_1' })).toEqual([expect.stringMatching(/^STRIPE_SECRET_KEY: is required with STRIPE_PUBLISHABLE_KEY/)]);
    expect(problemsOf({ STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toEqual([expect.stringMatching(/^STRIPE_WEBHOOK_SECRET: is set without/)]);
    expect(
      problemsOf({ STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_SECRET_KEY: 'sk_test_1' })
        .map((p) => p.split(':')[0])
        .sort(),
    ).toEqual(['STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET']);
    // Both keys, with or without the webhook secret, are whole.
    expect(readConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1' }).stripeWebhookSecret).toBeUndefined();
  });
});

describe('required variables', () => {
  it('names each missing one with who requires it, among the other problems', () => {
    const requirements = { required: ['DATABASE_URL', 'SESSION_SECRET'] as const, by: 'npm run start:api' };
    expect(problemsOfRequired({ DATABASE_URL: '', PORT: 'x' }, [...requirements.required], requirements.by)).toEqual([
      expect.stringMatching(/^PORT: /),
      'DATABASE_URL: is required by npm run start:api',
      'SESSION_SECRET: is required by npm run start:api',
    ]);
    expect(readConfig({ DATABASE_URL: 'postgres://db/storage', SESSION_SECRET: 's'.repeat(32) }, { required: [...requirements.required] }).databaseUrl).toBe(
      'postgres://db/storage',
    );
  });

  function problemsOfRequired(env: NodeJS.ProcessEnv, required: ConfigVariable[], by: string): string[] {
    try {
      readConfig(env, { required, by });
    } catch (error) {
      return (error as ConfigError).problems;
    }
    throw new Error('readConfig accepted it');
  }
});

describe('parseSecondsMs', () => {
  it('reads a command option as the schema reads the variables', () => {
    expect(parseSecondsMs('--grace-seconds', '0')).toBe(0);
    expect(parseSecondsMs('--grace-seconds', '1.5')).toBe(1500);
    expect(() => parseSecondsMs('--grace-seconds', 'soon')).toThrow(/^[\s\S]*--grace-seconds: must be a number of seconds/);
  });
});

describe('.env', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'config-env-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is read when present, the real environment winning over it (even when empty)', () => {
    const path = join(dir, '.env');
    writeFileSync(path, '# a comment\nPORT=4000\nLOG_LEVEL=debug\nDATABASE_URL="postgres://file@db/storage"\nREDIS_URL=redis://file:6379\n');
    const env: NodeJS.ProcessEnv = { PORT: '5000', REDIS_URL: '' };
    expect(loadEnvFile(path, env)).toBe(true);
    expect(env).toEqual({ PORT: '5000', REDIS_URL: '', LOG_LEVEL: 'debug', DATABASE_URL: 'postgres://file@db/storage' });
    expect(readConfig(env)).toMatchObject({ port: 5000, logLevel: 'debug', databaseUrl: 'postgres://file@db/storage', redisUrl: undefined });
  });

  it('is optional', () => {
    const env: NodeJS.ProcessEnv = { PORT: '5000' };
    expect(loadEnvFile(join(dir, '.env'), env)).toBe(false);
    expect(env).toEqual({ PORT: '5000' });
  });
});

describe('mail settings', () => {
  it('reads the SMTP server, the sender and the public address', () => {
    const config = readConfig({ SMTP_URL: 'smtp://u:p@mail.test:587', MAIL_FROM: 'Riverside <office@riverside.test>', PUBLIC_URL: 'https://storage.test/' });
    expect(config).toMatchObject({ smtpUrl: 'smtp://u:p@mail.test:587', mailFrom: 'Riverside <office@riverside.test>', publicUrl: 'https://storage.test' });
  });

  it('refuses an SMTP server without a sender, and a URL of another scheme', () => {
    expect(() => readConfig({ SMTP_URL: 'smtp://mail.test' })).toThrow(/MAIL_FROM: is required with SMTP_URL/);
    expect(() => readConfig({ SMTP_URL: 'http://mail.test', MAIL_FROM: 'a@b.test' })).toThrow(/SMTP_URL: must be a smtp/);
    expect(() => readConfig({ MAIL_FROM: 'not an address' })).toThrow(/MAIL_FROM: must be an address/);
  });
});

describe('.env.example', () => {
  const example = parseEnv(readFileSync(new URL('../../.env.example', import.meta.url), 'utf8'));

  it('lists every variable of the schema, and nothing else', () => {
    expect(Object.keys(example).sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('shows the defaults', () => {
    expect(readConfig(example)).toEqual(readConfig({}));
  });
});
