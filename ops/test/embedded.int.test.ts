import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sessionCookie } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The README's `npm start` on a fresh DATA_DIR: embedded PostgreSQL, demo data, the printed
// login; Ctrl-C stops everything; the second start reuses the data; a killed start's PostgreSQL is
// named by the next start instead of an unexplained failure.

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const PORT = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${PORT}`;

interface Started {
  child: ChildProcess;
  output: () => string;
}

function start(dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, [cli, 'start'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), DATABASE_URL: '', REDIS_URL: '', EVENTSTORE_URL: '', DEMO_PASSWORD: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 150 s:\n${out}`)), 150_000);
    child.stdout!.on('data', () => {
      if (out.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve({ child, output: () => out });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${out}`));
    });
  });
}

/** Ctrl-C, and how the start ended: its exit code, or the signal that ended it. */
async function stop(started: Started): Promise<number | string> {
  const exited = new Promise<number | string>((r) => started.child.once('exit', (code, signal) => r(code ?? `signal ${signal}`)));
  started.child.kill('SIGINT');
  return exited;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function signIn(email = 'owner@demo.test', password = 'demo1234'): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  return sessionCookie(response.headers.getSetCookie());
}

/** Signs in once the projector has shown the account (it may be a moment behind the command). */
async function signInSoon(email: string, password: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (response.status === 200) return sessionCookie(response.headers.getSetCookie());
    if (Date.now() > deadline) throw new Error(`${email} could not sign in: ${response.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function staffCreate(dataDir: string, email: string, role: string): Promise<{ code: number | null; output: string }> {
  const args = [cli, 'staff:create', '--email', email, '--first-name', 'Audrey', '--last-name', 'Auditor', '--role', role, '--password-stdin'];
  const child = spawn(process.execPath, args, { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', EVENTSTORE_URL: '' } });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  child.stdin.end('an auditors password\n');
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('npm start (embedded default)', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'storage-embedded-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('seeds on the first start, prints the login, stops cleanly, and reuses the data', async () => {
    const first = await start(dataDir);
    expect(first.output()).toContain('First start: seeding the demo dataset');
    expect(first.output()).toContain(`running at http://127.0.0.1:${PORT}`);
    expect(first.output()).toContain('owner@demo.test / demo1234');
    const embeddedPort = Number(/Embedded PostgreSQL on port (\d+)/.exec(first.output())?.[1]);
    expect(embeddedPort).not.toBe(5432);

    const cookie = await signIn();
    const customers = await fetch(`${base}/api/customers?pageSize=200`, { headers: { cookie } });
    const seeded = Number(customers.headers.get('x-total-count'));
    expect(seeded).toBeGreaterThanOrEqual(40);
    const facilities = (await (await fetch(`${base}/api/facilities`, { headers: { cookie } })).json()) as { totalUnits: number }[];
    expect(facilities.length).toBeGreaterThanOrEqual(3);
    expect(facilities.reduce((n, f) => n + f.totalUnits, 0)).toBeGreaterThanOrEqual(60);
    const landing = await fetch(`${base}/`);
    expect(await landing.text()).toContain('portal-assets');
    const dashboard = await fetch(`${base}/`, { headers: { cookie } });
    expect(await dashboard.text()).toContain('console-assets');

    expect(await stop(first)).toBe(0);
    expect(await portOpen(embeddedPort)).toBe(false);
    expect(await portOpen(PORT)).toBe(false);

    const second = await start(dataDir);
    try {
      expect(second.output()).not.toContain('seeding');
      const again = await fetch(`${base}/api/customers`, { headers: { cookie: await signIn() } });
      expect(Number(again.headers.get('x-total-count'))).toBe(seeded);
    } finally {
      expect(await stop(second)).toBe(0);
    }
  }, 300_000);

  it('ops staff:create uses the embedded PostgreSQL of DATA_DIR: started for the command when npm start is stopped, the running one otherwise', async () => {
    const whileStopped = await staffCreate(dataDir, 'audrey@example.com', 'auditor');
    expect(whileStopped.output).toContain('Staff account audrey@example.com created (auditor');
    expect(whileStopped.code).toBe(0);
    const embeddedPort = Number(await readFile(join(dataDir, 'postgres.port'), 'utf8'));
    expect(await portOpen(embeddedPort)).toBe(false);

    const running = await start(dataDir);
    try {
      const auditor = await signInSoon('audrey@example.com', 'an auditors password');
      const user = (await (await fetch(`${base}/api/auth/user`, { headers: { cookie: auditor } })).json()) as { role: string };
      expect(user.role).toBe('auditor');
      const whileRunning = await staffCreate(dataDir, 'second.auditor@example.com', 'auditor');
      expect(whileRunning.code).toBe(0);
      await signInSoon('second.auditor@example.com', 'an auditors password');
      const refused = await staffCreate(dataDir, 'audrey@example.com', 'auditor');
      expect(refused.code).toBe(1);
      expect(refused.output).toContain('already exists');
    } finally {
      expect(await stop(running)).toBe(0);
    }
  }, 300_000);

  it('a start killed without stopping leaves its PostgreSQL running: the next start says so, names the pid, and starts once it is stopped', async () => {
    const killed = await start(dataDir);
    const exited = new Promise((r) => killed.child.once('exit', r));
    killed.child.kill('SIGKILL');
    await exited;
    const embeddedPort = Number(await readFile(join(dataDir, 'postgres.port'), 'utf8'));
    expect(await portOpen(embeddedPort)).toBe(true);
    const pid = Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n', 1)[0]);

    const refused = await start(dataDir).then(
      async (started) => {
        await stop(started);
        throw new Error('the second start ran beside the PostgreSQL the first one left');
      },
      (error: Error) => error.message,
    );
    expect(refused).toContain('exited with 1');
    expect(refused).toContain(`already running (pid ${pid})`);
    expect(refused).toContain(`kill ${pid}`);

    // The advice it gives: PostgreSQL shuts down cleanly on SIGTERM, and the start then works.
    process.kill(pid, 'SIGTERM');
    await expect.poll(() => portOpen(embeddedPort), { timeout: 30_000 }).toBe(false);
    const again = await start(dataDir);
    expect(await stop(again), again.output()).toBe(0);
  }, 300_000);
});
