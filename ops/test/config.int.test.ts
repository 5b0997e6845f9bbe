import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The entry points read `.env` of their working directory and the configuration once, at start,
// and stop on a wrong one with every problem listed, before touching anything.

const entryPoints = {
  cli: fileURLToPath(new URL('../src/cli.ts', import.meta.url)),
  api: fileURLToPath(new URL('../../api/src/main.ts', import.meta.url)),
  projector: fileURLToPath(new URL('../../projector/src/main.ts', import.meta.url)),
};

/** The product's variables cleared, so the machine's own environment does not leak in. */
const cleared = Object.fromEntries(
  [
    'PORT',
    'HOST',
    'DATA_DIR',
    'DATABASE_URL',
    'EVENTSTORE_URL',
    'REDIS_URL',
    'SESSION_SECRET',
    'DEMO_PASSWORD',
    'TRUST_PROXY',
    'LOG_LEVEL',
    'PROJECTOR_HEALTH_PORT',
  ]
    .concat([
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'RESERVATION_HOLD_DAYS',
      'PAYMENT_GRACE_SECONDS',
      'WORKFLOW_GRACE_SECONDS',
      'DEBUG_EMBEDDED_POSTGRES',
    ])
    .map((name) => [name, undefined]),
);

function run(script: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env: { ...process.env, ...cleared, ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('configuration at start', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'config-start-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(Object.entries(entryPoints))(
    '%s refuses a wrong configuration naming every wrong variable, a Stripe secret key alone included',
    async (_name, script) => {
      const { code, output } = await run(script, ['migrate'], dir, { PORT: 'eighty', LOG_LEVEL: 'loud', STRIPE_SECRET_KEY: 'sk_test_alone' });
      expect(code).toBe(1);
      expect(output).toContain('The configuration is not valid');
      expect(output).toMatch(/PORT: must be a port number/);
      expect(output).toMatch(/LOG_LEVEL: must be one of/);
      expect(output).toMatch(/STRIPE_PUBLISHABLE_KEY: is required with STRIPE_SECRET_KEY/);
      expect(output).not.toContain('sk_test_alone');
      // A message, not a stack trace.
      expect(output).not.toMatch(/\n\s+at /);
    },
  );

  it('names every variable a distributed process cannot run without', async () => {
    const api = await run(entryPoints.api, [], dir);
    expect(api.code).toBe(1);
    expect(api.output).toMatch(/DATABASE_URL: is required by `npm run start:api`/);
    expect(api.output).toMatch(/SESSION_SECRET: is required by `npm run start:api`/);
    const projector = await run(entryPoints.projector, [], dir);
    expect(projector.code).toBe(1);
    expect(projector.output).toMatch(/DATABASE_URL: is required by `npm run start:projector`/);
  });

  it('reads .env of the working directory, the real environment winning over it', async () => {
    await writeFile(join(dir, '.env'), 'PORT=eighty\nREDIS_URL=nowhere\n');
    const fromFile = await run(entryPoints.cli, ['migrate'], dir);
    expect(fromFile.code).toBe(1);
    expect(fromFile.output).toMatch(/PORT: must be a port number[\s\S]*REDIS_URL: must be a redis/);

    const overridden = await run(entryPoints.cli, ['migrate'], dir, { PORT: '3000', REDIS_URL: '' });
    expect(overridden.code).toBe(1);
    expect(overridden.output).not.toContain('The configuration is not valid');
    expect(overridden.output).toContain('migrate needs DATABASE_URL');
  });
});
