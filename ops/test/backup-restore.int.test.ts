import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readConfig } from '@storage/platform/config';
import { createTestDatabase, TEST_POSTGRES_URL, type TestDatabase } from '@storage/testing/database';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { renterFields } from '@storage/testing/renters';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/cluster-local.ts';
import { startAll } from '../src/start.ts';
import { runCli } from './cli.ts';

// The runbook of docs/operations/backup-and-restore.md for a PostgreSQL server of your own, as an
// operator follows it: `pg_dump --format=custom` of the whole database while the product takes
// commands, `pg_restore` into an empty database, the product started on it, then `ops verify` and
// `ops books:check`. A dump is one snapshot of every table, so the read model, its checkpoints and
// the write side's tables must come back agreeing with the events the snapshot holds.

const run = promisify(execFile);

async function eventIds(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>('SELECT id::text FROM event_store.events ORDER BY transaction_id, global_position');
    return rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/** The major version of a server, or null when it cannot be reached. */
async function serverMajor(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
    return Math.floor(Number(rows[0]!.v) / 10_000);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A server this machine's pg_dump can dump (pg_dump refuses a newer major than its own): the run's
 * own, else the machine's PostgreSQL. The run's embedded cluster is a newer major than Debian's
 * client tools, while the machine's server (the one .ci/run starts) comes with them.
 */
async function dumpableServer(): Promise<{ url: string } | { missing: string }> {
  const version = await run('pg_dump', ['--version']).catch(() => null);
  const major = Number(version?.stdout.match(/(\d+)\.\d+/)?.[1]);
  if (!major) return { missing: 'pg_dump is not installed' };
  for (const url of [TEST_POSTGRES_URL, 'postgres://postgres@127.0.0.1:5432/postgres']) {
    if ((await serverMajor(url)) === major) return { url };
  }
  return { missing: `no PostgreSQL ${major} server here for pg_dump ${major}` };
}

const server = await dumpableServer();
if ('missing' in server) console.warn(`backup-restore: skipped, ${server.missing}`);

describe.skipIf('missing' in server)('backup while commands run, restore, verify and check the books', () => {
  const serverUrl = 'url' in server ? server.url : TEST_POSTGRES_URL;
  let platform: TestPlatform;
  let restored: TestDatabase | undefined;
  let work: string;
  let cookie: string;
  let staff: { email: string; password: string };
  let facilityId: string;
  const today = new Date().toISOString().slice(0, 10);

  const send = async (method: 'POST', url: string, payload?: object) => {
    const answer = await platform.api.app.inject({ method, url, ...(payload && { payload }), headers: { cookie, 'idempotency-key': randomUUID() } });
    if (answer.statusCode >= 300) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body}`);
    return answer.json() as { id: string };
  };

  /** A renter moved in (customer, unit, lease) and paying something at the desk: the commands of a working day. */
  async function moveInAndPay(tag: string): Promise<void> {
    const customer = await send('POST', '/api/customers', renterFields('Backup', 'Renter', tag, { facilityId }));
    const unit = await send('POST', '/api/units', { unitNumber: `B-${tag}`, building: 'Backup', monthlyRate: '95.00', facilityId });
    await send('POST', '/api/leases', { customerId: customer.id, unitId: unit.id, monthlyRate: '95.00', depositAmount: '50.00', startDate: today });
    await send('POST', `/api/customers/${customer.id}/payments`, { amount: '40.00', method: 'cash' });
  }

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'backup-restore-'));
    platform = await startTestPlatform({ server: serverUrl });
    staff = await platform.createStaff('owner');
    const login = await platform.api.app.inject({ method: 'POST', url: '/api/auth/login', payload: staff });
    cookie = sessionCookie(login.headers['set-cookie']);
    facilityId = (await send('POST', '/api/facilities', { name: 'Backup Hill Storage', address: '1 Snapshot Road' })).id;
  });
  afterAll(async () => {
    await platform?.close();
    await restored?.drop();
    await rm(work, { recursive: true, force: true });
  });

  it('a pg_dump taken while commands run restores to a product whose verify and books:check pass', async () => {
    for (let n = 0; n < 2; n++) await moveInAndPay(`seed${n}`);

    // The working day goes on in the background: commands one after another, until the dump has
    // been taken and a few more have gone through after it.
    const dump = join(work, 'storage.dump');
    let dumpStarted = 0;
    let dumpEnded = 0;
    const spans: { sent: number; answered: number }[] = [];
    const loop = (async () => {
      for (let n = 0; !dumpEnded || spans.filter((s) => s.sent > dumpEnded).length < 2; n++) {
        const sent = performance.now();
        await moveInAndPay(`loop${n}`);
        spans.push({ sent, answered: performance.now() });
      }
    })();
    // Once the loop is under way, so the snapshot falls in the middle of its commands.
    await expect.poll(() => spans.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const beforeDump = await eventIds(platform.database.url);
    dumpStarted = performance.now();
    const dumped = run('pg_dump', ['--format=custom', `--file=${dump}`, `--dbname=${platform.database.url}`]).finally(() => {
      dumpEnded = performance.now();
    });
    // Both settled before either's failure is thrown: the loop must not outlive the platform.
    await Promise.allSettled([dumped, loop]);
    await dumped;
    await loop;
    expect(
      spans.some((s) => s.sent < dumpEnded && s.answered > dumpStarted),
      'a command was in flight while pg_dump ran',
    ).toBe(true);
    const source = await eventIds(platform.database.url);

    // Restored into an empty database of the same server, as the runbook says.
    restored = await createTestDatabase('restored', undefined, serverUrl);
    await run('pg_restore', ['--single-transaction', '--exit-on-error', `--dbname=${restored.url}`, dump]);
    // The history as the snapshot saw it: every event committed before the dump began (the first
    // renters' and the loop's first commands'), none that was not in the source, and not those of
    // the commands after it. Not a prefix of the source's log: a command in flight at the snapshot
    // may commit after it with a lower transaction id than one that committed before.
    const history = await eventIds(restored.url);
    expect(history).toEqual(expect.arrayContaining(beforeDump));
    expect(source).toEqual(expect.arrayContaining(history));
    expect(history.length).toBeLessThan(source.length);

    // The product started on the restored database: the same staff account signs in, and a new
    // command is answered and shown, so new events are read after the restored ones.
    const port = await freePort();
    const product = await startAll(
      readConfig({
        DATABASE_URL: restored.url,
        DATA_DIR: join(work, 'data'),
        SESSION_SECRET: randomBytes(32).toString('hex'),
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'silent',
      }),
      () => {},
    );
    try {
      const login = await fetch(`${product.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(staff),
      });
      expect(login.status).toBe(200);
      const restoredCookie = sessionCookie(login.headers.getSetCookie());
      const added = await fetch(`${product.url}/api/customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: restoredCookie, 'idempotency-key': randomUUID() },
        body: JSON.stringify(renterFields('After', 'Restore', 'new', { facilityId })),
      });
      expect(added.status, await added.clone().text()).toBe(201);
      const { id } = (await added.json()) as { id: string };
      expect((await fetch(`${product.url}/api/customers/${id}`, { headers: { cookie: restoredCookie } })).status).toBe(200);

      // The runbook's checks, as the operator runs them, while the product runs. Side by side: both
      // only read (verify rebuilds into a shadow schema of its own), and each CLI process spends
      // seconds loading the TypeScript tree.
      const [verified, books] = await Promise.all([runCli(['verify'], restored.url), runCli(['books:check'], restored.url)]);
      expect(verified.output).toContain('no differences');
      expect(verified.code, verified.output).toBe(0);
      expect(books.output).toContain('The books hold');
      expect(books.code, books.output).toBe(0);
    } finally {
      await product.stop();
    }
  }, 120_000);
});
