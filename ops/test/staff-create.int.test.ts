import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostgresEventStore } from '@storage/eventstore/postgres';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Distributed mode has no default account: `npm run ops -- staff:create` makes the first one.

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

function runCli(args: string[], env: Record<string, string>, input: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, REDIS_URL: '', EVENTSTORE_URL: '', ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
    child.stdin.end(input);
  });
}

describe('ops staff:create', () => {
  let database: TestDatabase;
  const args = ['staff:create', '--email', 'First.Owner@Example.com', '--first-name', 'First', '--last-name', 'Owner', '--role', 'owner', '--password-stdin'];

  beforeAll(async () => {
    database = await createTestDatabase('staff_create');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('creates a staff account from a password on standard input, once', async () => {
    const created = await runCli(args, { DATABASE_URL: database.url }, 'a long password\n');
    expect(created.output).toContain('Staff account first.owner@example.com created (owner');
    expect(created.code).toBe(0);

    const store = await createPostgresEventStore({ connectionString: database.url });
    const registered = (await store.readAll({ limit: 100 })).filter((e) => e.type === 'staff_registered');
    await store.close();
    expect(registered).toHaveLength(1);
    expect(registered[0]!.data).toMatchObject({ email: 'first.owner@example.com', firstName: 'First', lastName: 'Owner', role: 'owner' });
    expect(JSON.stringify(registered[0]!.data)).not.toContain('scrypt');

    const again = await runCli(args, { DATABASE_URL: database.url }, 'another long password\n');
    expect(again.code).toBe(1);
    expect(again.output).toContain('already exists');
  });

  it('refuses a short password, one easy to guess, an unknown role, and a DATA_DIR without an embedded PostgreSQL when DATABASE_URL is unset', async () => {
    const short = await runCli(args, { DATABASE_URL: database.url }, 'short\n');
    expect([short.code, short.output.trim()]).toEqual([1, 'The password must be at least 12 characters']);
    // The console's rule: the first owner's password is the one that guards everything.
    const weak = await runCli(args, { DATABASE_URL: database.url }, 'first.owner@example.com\n');
    expect([weak.code, weak.output.trim()]).toEqual([
      1,
      expect.stringMatching(/^The password is too easy to guess: It contains the name or email of the account\./),
    ]);
    const role = await runCli(
      ['staff:create', '--email', 'a@example.com', '--role', 'boss', '--password-stdin'],
      { DATABASE_URL: database.url },
      'a long password',
    );
    expect(role.code).toBe(1);
    expect(role.output).toContain('--role must be one of: owner, manager, clerk, auditor');
    const emptyDataDir = await mkdtemp(join(tmpdir(), 'storage-no-embedded-'));
    try {
      const noDatabase = await runCli(args, { DATABASE_URL: '', DATA_DIR: emptyDataDir }, 'a long password');
      expect(noDatabase.code).toBe(1);
      expect(noDatabase.output).toContain(`No embedded PostgreSQL in ${emptyDataDir}: run \`npm start\` once first`);
    } finally {
      await rm(emptyDataDir, { recursive: true, force: true });
    }
  });
});
