import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runningPostmaster, startEmbeddedPostgres } from '@storage/embedded/postgres';
import { loadOrCreateSecrets } from '@storage/embedded/secrets';
import { connectEventStore } from '@storage/eventstore/connect';
import type { EventStore } from '@storage/eventstore/port';
import { readConfig } from '@storage/platform/config';
import { createDatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { readModelProjections } from '@storage/projector/projections';
import { catchUpTo, ensureCheckpoints } from '@storage/projector/runner';
import { seedDemoData } from '@storage/seed/demo';
import { sessionCookie } from '@storage/testing/platform';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEEDED_FILE } from '../src/first-start.ts';
import { startAll } from '../src/start.ts';

// A first `npm start` that stops on the way (a port found taken, Ctrl-C or a crash during initdb
// or the demo seed) must leave an install the next start finishes, never one that fails at every
// start after ("database storage does not exist") or starts without its demo login.

const PASSWORD = 'a-password-of-the-test-only';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'first-start-'));
  // As root, PostgreSQL runs as a user of its own, which must reach the DATA_DIRs in here.
  await chmod(root, 0o755);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

let dirs = 0;
/** A DATA_DIR of its own (not yet made), for one test. */
const dataDirFor = () => join(root, `data-${++dirs}`);

/** A port nothing listens on now (the system's pick). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function occupy(port: number): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer().listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

function adminUrl(url: string): string {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return admin.toString();
}

describe('the embedded PostgreSQL after a first start that stopped on the way', () => {
  it('a cluster a start stopped during initdb left half-made is made again', async () => {
    const dataDir = dataDirFor();
    // What a start killed during initdb leaves: initdb works in postgres.init, renamed once whole.
    await mkdir(join(dataDir, 'postgres.init', 'base', '1'), { recursive: true });
    await writeFile(join(dataDir, 'postgres.init', 'PG_VERSION'), '18\n');
    const embedded = await startEmbeddedPostgres(dataDir, PASSWORD);
    try {
      expect(await query(embedded.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(existsSync(join(dataDir, 'postgres.init'))).toBe(false);
      expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
    } finally {
      await embedded.stop();
    }
  });

  it('a cluster whose first start stopped before its database was made gets it on the next start', async () => {
    const dataDir = dataDirFor();
    const first = await startEmbeddedPostgres(dataDir, PASSWORD);
    // The state a first start left when PostgreSQL could not start after initdb.
    await query(adminUrl(first.url), 'DROP DATABASE storage');
    await first.stop();

    const next = await startEmbeddedPostgres(dataDir, PASSWORD);
    try {
      expect(await query(next.url, 'SELECT current_database() AS name')).toEqual([{ name: 'storage' }]);
    } finally {
      await next.stop();
    }
  });

  it("an earlier version's in-place initdb: only folders is made again, a folder holding files is left alone", async () => {
    const emptyFolders = dataDirFor();
    await mkdir(join(emptyFolders, 'postgres', 'global'), { recursive: true });
    await mkdir(join(emptyFolders, 'postgres', 'base'), { recursive: true });
    const embedded = await startEmbeddedPostgres(emptyFolders, PASSWORD);
    await embedded.stop();
    expect(existsSync(join(emptyFolders, 'postgres', 'PG_VERSION'))).toBe(true);

    const withFiles = dataDirFor();
    await mkdir(join(withFiles, 'postgres', 'base', '5'), { recursive: true });
    await writeFile(join(withFiles, 'postgres', 'base', '5', '1259'), 'something');
    await expect(startEmbeddedPostgres(withFiles, PASSWORD)).rejects.toThrow(/holds files but no PostgreSQL cluster \(no PG_VERSION\), so it is left as it is/);
    expect(await readFile(join(withFiles, 'postgres', 'base', '5', '1259'), 'utf8')).toBe('something');
  });

  it('a port another PostgreSQL holds where the probe cannot see it (its socket file) is passed over', async () => {
    // Another PostgreSQL listening elsewhere than 127.0.0.1 holds the socket file of its port
    // number: the free-port probe sees nothing, and PostgreSQL refuses to start there.
    let port = 57_000 + Math.floor(Math.random() * 900);
    while (existsSync(`/tmp/.s.PGSQL.${port}.lock`)) port++;
    const lock = `/tmp/.s.PGSQL.${port}.lock`;
    // Its pid must be a live process of PostgreSQL's user (root runs it as `postgres`, made by an earlier test).
    const asPostgres = process.getuid?.() === 0;
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
    const holder: ChildProcess = spawn('sleep', ['120'], asPostgres ? { uid: id('-u'), gid: id('-g') } : {});
    try {
      await writeFile(lock, `${holder.pid}\n/another/cluster\n`, { mode: 0o644 });
      const embedded = await startEmbeddedPostgres(dataDirFor(), PASSWORD, { firstPort: port });
      try {
        expect(embedded.port).toBeGreaterThan(port);
        expect(await query(embedded.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      } finally {
        await embedded.stop();
      }
    } finally {
      holder.kill();
      await rm(lock, { force: true });
    }
  });
});

describe('secrets.json', () => {
  it('is written whole once and reused; a damaged one is made afresh only while no cluster uses its password', async () => {
    const dataDir = dataDirFor();
    const made = await loadOrCreateSecrets(dataDir);
    expect(await loadOrCreateSecrets(dataDir)).toEqual(made);
    expect(await readdir(dataDir)).toEqual(['secrets.json']);

    // Half a file, as an earlier version stopped while writing it could leave.
    await writeFile(join(dataDir, 'secrets.json'), '{"sessionSecret": "');
    const again = await loadOrCreateSecrets(dataDir);
    expect(again.databasePassword).not.toBe(made.databasePassword);
    expect(await loadOrCreateSecrets(dataDir)).toEqual(again);

    await mkdir(join(dataDir, 'postgres'));
    await writeFile(join(dataDir, 'postgres', 'PG_VERSION'), '18\n');
    await writeFile(join(dataDir, 'secrets.json'), '{"sessionSecret": "');
    await expect(loadOrCreateSecrets(dataDir)).rejects.toThrow(/secrets\.json is damaged .* was made with the password it held/);
    expect(await readFile(join(dataDir, 'secrets.json'), 'utf8')).toBe('{"sessionSecret": "');
  });
});

describe('startAll (npm start) after a first start that stopped on the way', () => {
  const configFor = (dataDir: string, port: number) => readConfig({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' });

  it('a port already taken stops the start at once, naming the port and what to do, before anything is made', async () => {
    const port = await freePort();
    const taken = await occupy(port);
    const dataDir = dataDirFor();
    try {
      await expect(startAll(configFor(dataDir, port), () => {})).rejects.toThrow(
        `Port ${port} on 127.0.0.1 is already in use: another program (or another npm start) listens there. Stop it, or start on another port: PORT=${port + 1} npm start`,
      );
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      taken.close();
    }
  });

  it('a seed stopped half-way is redone by the next start; a start that found its port taken only at the end leaves it to the next one to listen', async () => {
    const dataDir = dataDirFor();
    const port = await freePort();
    const secrets = await loadOrCreateSecrets(dataDir);

    // A first start stopped while seeding (Ctrl-C, a crash): part of the demo, no staff account.
    const first = await startEmbeddedPostgres(dataDir, secrets.databasePassword);
    const store = await connectEventStore({ databaseUrl: first.url });
    await migrateReadModel(first.url);
    const pool = await createDatabasePool(first.url);
    await ensureCheckpoints(pool, readModelProjections);
    let appends = 0;
    const stopping: EventStore = {
      ...store,
      async append(...args) {
        if (++appends > 300) throw new Error('stopped while seeding');
        return store.append(...args);
      },
    };
    const catchUp = (position: Parameters<typeof catchUpTo>[3]) => catchUpTo(pool, store, readModelProjections, position, 120_000);
    await expect(seedDemoData({ store: stopping, pool, catchUpTo: catchUp }, { now: new Date() })).rejects.toThrow('stopped while seeding');
    await pool.end();
    await store.close();
    await first.stop();

    // The next start seeds again from the start, and finds its port taken when it comes to listen.
    const lines: string[] = [];
    let taken: Server | undefined;
    const second = startAll(configFor(dataDir, port), (line) => {
      lines.push(line);
      // Bound at once (no host: no lookup), before the start goes on to listen.
      if (line === 'Demo data seeded.') taken = createServer().listen(port);
    });
    await expect(second).rejects.toThrow(`Port ${port} on 127.0.0.1 is already in use`);
    taken?.close();
    expect(lines).toContain('The first start stopped while seeding the demo dataset: seeding it again from the start.');
    expect(existsSync(join(dataDir, DEMO_SEEDED_FILE))).toBe(true);
    // It stopped what it had started: the next start finds no PostgreSQL of this folder running.
    expect(await runningPostmaster(join(dataDir, 'postgres'))).toBeUndefined();

    // As an install seeded by a version that wrote no marker: its staff account says it is done.
    await rm(join(dataDir, DEMO_SEEDED_FILE));
    const third: string[] = [];
    const running = await startAll(configFor(dataDir, port), (line) => third.push(line));
    try {
      expect(third.join('\n')).not.toContain('seeding');
      expect(third).toContain(`Self-storage platform running at http://127.0.0.1:${port}`);
      expect(existsSync(join(dataDir, DEMO_SEEDED_FILE))).toBe(true);
      const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@demo.test', password: 'demo1234' }),
      });
      expect(login.status).toBe(200);
      // The whole demo, not the part the stopped seed had written.
      const customers = await fetch(`${running.url}/api/customers?pageSize=200`, { headers: { cookie: sessionCookie(login.headers.getSetCookie()) } });
      expect(Number(customers.headers.get('x-total-count'))).toBeGreaterThanOrEqual(40);
    } finally {
      await running.stop();
    }
  }, 240_000);
});
