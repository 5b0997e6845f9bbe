// `npm run ops -- cluster:local`: the distributed deployment on this machine, and its failover.
// Two API processes and two projector processes (the same commands as `npm run start:api` and
// `npm run start:projector`, which the Docker image runs) on a fresh database of the machine's
// PostgreSQL and on its Redis. Commands go through both APIs; the projector running the catch-ups
// is killed with SIGKILL half-way; the standby takes over; every command's customer must then be
// in the read model exactly once, and `ops verify` must find the read tables equal to a rebuild.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const apiMain = fileURLToPath(new URL('../../api/src/main.ts', import.meta.url));
const projectorMain = fileURLToPath(new URL('../../projector/src/main.ts', import.meta.url));

const STAFF_EMAIL = 'cluster.owner@example.test';
const STAFF_PASSWORD = 'cluster-run-password';

export interface ClusterRunOptions {
  /** Any database URL on the PostgreSQL server to use; a fresh database is made on it and dropped after. */
  postgresUrl: string;
  /** The Redis to use; the run takes one of its numbered databases (`redisDb`) and deletes its BullMQ keys after. */
  redisUrl: string;
  redisDb?: number;
  /** Customers created before the kill and after it. */
  commandsBefore?: number;
  commandsAfter?: number;
  /** Where the run tells what happens. */
  say?: (line: string) => void;
  /** Keep the database (its name is printed) instead of dropping it. */
  keepDatabase?: boolean;
}

export interface ClusterRunResult {
  database: string;
  /** The projector killed (its name, `projector-a` or `projector-b`) and the one that took over. */
  killed: string;
  standby: string;
  /** Each command's customer, the API it went through, and how long its answer took (it waits for the read model). */
  customersCreated: { id: string; through: string; afterKill: boolean; ms: number }[];
  /** Customer ids as the event store has them (customer_added) and as the read table has them. */
  customerEvents: string[];
  customerRows: string[];
  /** Which projector applied the batches after the kill (application names seen locking the checkpoints). */
  checkpointLockersAfterKill: string[];
  verifyOutput: string;
  verifyExitCode: number | null;
  /** The output of every process, by name, for when something fails. */
  logs: Record<string, string>;
}

interface Child {
  name: string;
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function databaseUrl(serverUrl: string, database: string, applicationName?: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  url.search = '';
  if (applicationName) url.searchParams.set('application_name', applicationName);
  return url.toString();
}

function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Child {
  const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  child.stdin!.end(input ?? '');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, process: child, output: () => output, exited };
}

async function runToEnd(name: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<{ code: number | null; output: string }> {
  const child = startChild(name, args, env, input);
  const code = await child.exited;
  return { code, output: child.output() };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, children: Child[] = []): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = children.find((c) => c.process.exitCode !== null || c.process.signalCode !== null);
    if (dead) throw new Error(`${dead.name} exited while waiting for ${what}:\n${dead.output()}`);
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stopChild(child: Child, timeoutMs = 10_000): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), timeoutMs);
  await child.exited;
  clearTimeout(timer);
}

/**
 * Watches which projector holds the checkpoint locks (the runner's `FOR UPDATE SKIP LOCKED` takes
 * them for each batch, so the one holding them is the one running the catch-ups), by the
 * application name each projector's connections carry.
 */
function watchCheckpointLockers(url: string) {
  const seen: { name: string; at: number }[] = [];
  let running = true;
  const client = new pg.Client({ connectionString: url });
  const done = (async () => {
    await client.connect();
    while (running) {
      const at = Date.now();
      const { rows } = await client.query<{ application_name: string }>(
        `SELECT DISTINCT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.relation = 'projection_checkpoints'::regclass AND l.mode = 'RowShareLock' AND a.application_name LIKE 'projector-%'`,
      );
      for (const row of rows) seen.push({ name: row.application_name, at });
      await new Promise((r) => setTimeout(r, 5));
    }
    await client.end();
  })();
  return {
    /** The projectors seen holding the locks since `since` (ms), the most recent first. */
    since(since: number): string[] {
      const names: string[] = [];
      for (const { name, at } of [...seen].reverse()) if (at >= since && !names.includes(name)) names.push(name);
      return names;
    },
    async stop() {
      running = false;
      await done;
    },
  };
}

export async function runLocalCluster(options: ClusterRunOptions): Promise<ClusterRunResult> {
  const say = options.say ?? ((line: string) => console.log(line));
  const database = `cluster_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const redisDb = options.redisDb ?? 11;
  const redisUrl = new URL(options.redisUrl);
  redisUrl.pathname = `/${redisDb}`;
  const commandsBefore = options.commandsBefore ?? 6;
  const commandsAfter = options.commandsAfter ?? 6;

  const admin = new pg.Client({ connectionString: options.postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  say(`Database ${database} made on ${new URL(options.postgresUrl).host}; Redis ${redisUrl.host} database ${redisDb}.`);

  const [apiPortA, apiPortB, healthPortA, healthPortB, apiHealthA, apiHealthB] = await Promise.all(Array.from({ length: 6 }, freePort));
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl(options.postgresUrl, database),
    REDIS_URL: redisUrl.toString(),
    EVENTSTORE_URL: '',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    STRIPE_PUBLISHABLE_KEY: '',
    STRIPE_SECRET_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
  };
  const children: Child[] = [];
  const logs: Record<string, string> = {};
  let stopWatcher = async () => {};
  try {
    const migrated = await runToEnd('migrate', [cli, 'migrate'], baseEnv);
    logs.migrate = migrated.output;
    if (migrated.code !== 0) throw new Error(`ops migrate failed:\n${migrated.output}`);
    say(`ops migrate: ${migrated.output.trim().split('\n').at(-1)}`);
    const staff = await runToEnd(
      'staff:create',
      [cli, 'staff:create', '--email', STAFF_EMAIL, '--first-name', 'Cluster', '--last-name', 'Owner', '--role', 'owner', '--password-stdin'],
      baseEnv,
      STAFF_PASSWORD,
    );
    logs['staff:create'] = staff.output;
    if (staff.code !== 0) throw new Error(`ops staff:create failed:\n${staff.output}`);
    say(`ops staff:create: ${staff.output.trim().split('\n').at(-1)}`);

    const apis = [
      { name: 'api-a', port: apiPortA, health: apiHealthA },
      { name: 'api-b', port: apiPortB, health: apiHealthB },
    ].map(({ name, port, health }) => {
      const child = startChild(name, [apiMain], { ...baseEnv, PORT: String(port), PROJECTOR_HEALTH_PORT: String(health) });
      children.push(child);
      return { name, base: `http://127.0.0.1:${port}`, child, cookie: '' };
    });
    const projectors = [
      { name: 'projector-a', health: healthPortA },
      { name: 'projector-b', health: healthPortB },
    ].map(({ name, health }) => {
      const child = startChild(name, [projectorMain], {
        ...baseEnv,
        // The application name tells in pg_stat_activity which projector holds the checkpoint locks.
        DATABASE_URL: databaseUrl(options.postgresUrl, database, name),
        PROJECTOR_HEALTH_PORT: String(health),
      });
      children.push(child);
      return { name, child };
    });
    for (const projector of projectors) {
      await waitFor(`${projector.name} to start`, async () => (projector.child.output().includes('Projector running') ? true : undefined), 60_000, children);
    }
    for (const api of apis) {
      await waitFor(`${api.name} to listen`, async () => (await fetch(`${api.base}/api/auth/user`)).status, 60_000, children);
    }
    say(`Running: api-a on ${apis[0]!.base}, api-b on ${apis[1]!.base}, projector-a and projector-b.`);

    // The staff account is in the read model once a projector has applied its event.
    for (const api of apis) {
      api.cookie = await waitFor(
        `signing in on ${api.name}`,
        async () => {
          const response = await fetch(`${api.base}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: STAFF_EMAIL, password: STAFF_PASSWORD }),
          });
          if (response.status !== 200) return undefined;
          const cookie = response.headers.getSetCookie().find((c) => c.startsWith('storage_session='));
          return cookie?.split(';')[0];
        },
        30_000,
        children,
      );
    }
    say('Signed in on both APIs.');

    const created: ClusterRunResult['customersCreated'] = [];
    const createCustomer = async (n: number, afterKill: boolean) => {
      const api = apis[n % 2]!;
      const sent = performance.now();
      const response = await fetch(`${api.base}/api/customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: api.cookie, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ firstName: `Customer${n}`, lastName: afterKill ? 'AfterKill' : 'BeforeKill', email: `customer${n}@example.test` }),
      });
      const body = (await response.json()) as { id?: string };
      if (response.status !== 201 || !body.id) throw new Error(`creating customer ${n} on ${api.name}: ${response.status} ${JSON.stringify(body)}`);
      created.push({ id: body.id, through: api.name, afterKill, ms: Math.round(performance.now() - sent) });
    };

    const watcher = watchCheckpointLockers(databaseUrl(options.postgresUrl, database, 'cluster-watch'));
    stopWatcher = () => watcher.stop();
    const started = Date.now();
    for (let n = 0; n < commandsBefore; n++) await createCustomer(n, false);
    say(`Created ${commandsBefore} customers, alternately through api-a and api-b.`);

    // Each command wakes a catch-up; more of them until one has been seen holding the locks.
    let n = commandsBefore;
    const lockers = await waitFor(
      'a projector to be seen taking the checkpoint locks',
      async () => {
        const names = watcher.since(started);
        if (names.length) return names;
        await createCustomer(n++, false);
        return undefined;
      },
      20_000,
    );
    const active = projectors.find((p) => p.name === lockers[0])!;
    const standby = projectors.find((p) => p !== active)!;
    // Mid-way: a command is in flight when the active projector dies.
    const inFlight = createCustomer(n++, true);
    active.child.process.kill('SIGKILL');
    await active.child.exited;
    // PostgreSQL ends the dead process's sessions (and rolls back a batch it had open) once it sees the connections closed.
    await waitFor(
      `${active.name}'s database sessions to end`,
      async () =>
        (await admin.query('SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [database, active.name])).rowCount ? undefined : true,
      10_000,
    );
    const killedAt = Date.now();
    say(`Killed ${active.name} (the last to run a catch-up) with SIGKILL while a command was in flight; ${standby.name} is the standby.`);
    await inFlight;
    for (const end = n + commandsAfter - 1; n < end; ) await createCustomer(n++, true);
    // Each command wakes a catch-up; more of them until the standby has been seen holding the locks.
    await waitFor(
      `${standby.name} to be seen taking the checkpoint locks`,
      async () => {
        if (watcher.since(killedAt).includes(standby.name)) return true;
        await createCustomer(n++, true);
        return undefined;
      },
      20_000,
    );
    const slowest = (afterKill: boolean) => Math.max(...created.filter((c) => c.afterKill === afterKill).map((c) => c.ms));
    say(
      `Created ${created.filter((c) => c.afterKill).length} more customers through both APIs after the kill ` +
        `(slowest answer ${slowest(true)} ms after the kill, ${slowest(false)} ms before).`,
    );

    const expected = new Set(created.map((c) => c.id));
    const customerRows = await waitFor(
      'every created customer to be in the read model',
      async () => {
        const client = new pg.Client({ connectionString: databaseUrl(options.postgresUrl, database) });
        await client.connect();
        const { rows } = await client.query<{ id: string }>('SELECT id::text FROM customers ORDER BY id').finally(() => client.end());
        const ids = rows.map((r) => r.id);
        return [...expected].every((id) => ids.includes(id)) ? ids : undefined;
      },
      30_000,
      children.filter((c) => c !== active.child),
    );
    const client = new pg.Client({ connectionString: databaseUrl(options.postgresUrl, database) });
    await client.connect();
    let customerEvents: string[];
    try {
      customerEvents = (
        await client.query<{ id: string }>(`SELECT data->>'customerId' AS id FROM event_store.events WHERE type = 'customer_added' ORDER BY global_position`)
      ).rows.map((r) => r.id);
    } finally {
      await client.end();
    }
    const lockersAfterKill = watcher.since(killedAt);
    say(
      `Read model: ${customerRows.length} customer rows for ${customerEvents.length} customer_added events and ${created.length} created customers; ` +
        `checkpoints taken after the kill by: ${lockersAfterKill.join(', ') || 'nobody'}.`,
    );

    const verified = await runToEnd('verify', [cli, 'verify'], baseEnv);
    logs.verify = verified.output;
    const verdict =
      verified.output
        .trim()
        .split(/[\r\n]+/)
        .at(-1) ?? '';
    say(`ops verify (exit ${verified.code}): ${verdict}`);

    return {
      database,
      killed: active.name,
      standby: standby.name,
      customersCreated: created,
      customerEvents,
      customerRows,
      checkpointLockersAfterKill: lockersAfterKill,
      verifyOutput: verified.output,
      verifyExitCode: verified.code,
      logs,
    };
  } finally {
    await stopWatcher();
    await Promise.all(children.map((c) => stopChild(c)));
    for (const c of children) logs[c.name] = c.output();
    if (options.keepDatabase) say(`Kept database ${database}.`);
    else await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
    await deleteQueueKeys(redisUrl.toString());
    say(`Stopped the four processes${options.keepDatabase ? '.' : ' and dropped the database.'}`);
  }
}

/** The run's BullMQ keys (the deployments' default `bull:` prefix) in its Redis database. */
async function deleteQueueKeys(url: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'bull:*', 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** What is wrong with a run: customers lost or doubled, a read model that differs from a rebuild. Empty when none. */
export function checkClusterRun(result: ClusterRunResult): string[] {
  const problems: string[] = [];
  const count = (ids: string[]) => ids.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string, number>());
  const events = count(result.customerEvents);
  const rows = count(result.customerRows);
  for (const { id, through } of result.customersCreated) {
    if (events.get(id) !== 1) problems.push(`customer ${id} (through ${through}) has ${events.get(id) ?? 0} customer_added events`);
    if (rows.get(id) !== 1) problems.push(`customer ${id} (through ${through}) has ${rows.get(id) ?? 0} read-model rows`);
  }
  if (rows.size !== result.customerRows.length || result.customerRows.length !== result.customerEvents.length) {
    problems.push(`${result.customerRows.length} customer rows for ${result.customerEvents.length} customer_added events`);
  }
  if (result.verifyExitCode !== 0) problems.push(`ops verify exited with ${result.verifyExitCode}: ${result.verifyOutput.trim()}`);
  return problems;
}
