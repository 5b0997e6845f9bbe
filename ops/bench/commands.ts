import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { type ApiServer, createApiServer } from '@storage/api/server';
import { registerStaff } from '@storage/domain/auth/staff';
import { ProjectionProgress } from '@storage/platform/checkpoints';
import { readConfig } from '@storage/platform/config';
import { createDatabasePool, type DatabasePool, PROJECTOR_POOL_SIZE } from '@storage/platform/db';
import { queueConnection } from '@storage/platform/queues';
import { startProjector } from '@storage/projector/service';
import pg from 'pg';
import { sql } from 'slonik';
import {
  type ClientReply,
  type ClientRequest,
  type ClientState,
  caller,
  customerBody,
  deskCommands,
  type Fixtures,
  type Kind,
  openLoop,
  percentile,
  type Shown,
  sleep,
} from './commands-client.ts';
import { droppable, load, machine, machineBusyMsSince, machineCpu, startRun } from './measure.ts';
import { sessionCookie } from './session-cookie.ts';

// `npm run bench:commands [-- --rates 100,200,300 --seconds 10]`: commands through the HTTP API
// of the embedded default (what `npm start` runs: the API and the projector in one process, BullMQ
// on PostgreSQL, the event store in PostgreSQL), signed in as staff, at fixed offered rates,
// open loop (each request sent on its schedule, whatever the earlier ones are doing). The mix is
// the desk's: customers added (40%), edited (25%), moved in (20%), paying at the desk (15%). After
// each 2xx the client reads what the console reads next (the list searched for the new customer,
// the customer, the new lease, the account's credit) and checks the change is there: read-your-
// writes for every command. An edit whose read shows another edit of the same customer, one its
// history has after it, was overtaken, not lost: counted apart, not as "not shown". Projection lag is each command's
// wait for the read model (from its append to the projector's checkpoint passing it, timed in
// the process); the API's wait gives up at 2 s, so no lag above that is seen (a p99 at 2 s means
// "2 s or more", and the waits timed out say how many). SQL statements are
// counted in this process (every query the pg driver sends: the API, the projector, BullMQ's
// PostgreSQL backend, the listener), per command kind on commands sent one at a time. The timed
// loads (ours and the peer's) are sent by a child process (commands-client.ts), so the client's
// requests and checking reads take no CPU from the process under test; CPU is reported for both
// processes. The peer is
// a bare node:http server with one pg INSERT per request and one SELECT to read it back, on the same server and
// schedule. A throwaway database on the server of DATABASE_URL, else TEST_POSTGRES_URL, else the
// local PostgreSQL.

const TARGET_RATE = 300;
const TARGET_P99_MS = 150;
const TARGET_LAG_P99_MS = 100;
const TARGET_CREATE_STATEMENTS = 15;
/** How long the API's read-your-writes waits for the read model before it answers anyway (ProjectionProgress.wait's default): no lag above it is measured. */
const READ_YOUR_WRITES_WAIT_MS = 2000;

const { values } = parseArgs({
  options: {
    rates: { type: 'string', default: '100,200,300' },
    seconds: { type: 'string', default: '10' },
    keep: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    'trace-kind': { type: 'string', default: 'create' },
    /** Customers set up for each role (edited, paying, moving in). */
    fixtures: { type: 'string', default: '150' },
    /** Commands of each kind sent one at a time for the statement counts. */
    sequential: { type: 'string', default: '20' },
    /** Creates sent at 100/s for the statements per create under load. */
    burst: { type: 'string', default: '500' },
    /** Seconds of idle whose background statements are subtracted from the counts. */
    idle: { type: 'string', default: '3' },
  },
});
const rates = values.rates.split(',').map(Number);
const seconds = Number(values.seconds);
const fixtureCount = Number(values.fixtures);
const sequential = Number(values.sequential);
const burst = Number(values.burst);
const idleSeconds = Number(values.idle);
if (rates.some((r) => !Number.isFinite(r) || r <= 0)) throw new Error('--rates must be commands per second, comma-separated');
if (!Number.isFinite(seconds) || seconds <= 0) throw new Error('--seconds must be a positive number');
for (const [name, n] of [
  ['--fixtures', fixtureCount],
  ['--sequential', sequential],
  ['--burst', burst],
] as const)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1`);
if (!Number.isFinite(idleSeconds) || idleSeconds <= 0) throw new Error('--idle must be a positive number of seconds');
const benchRun = startRun('commands', {
  rates,
  secondsPerRate: seconds,
  fixtures: fixtureCount,
  sequential,
  burst,
  idleSeconds,
  keep: values.keep,
  trace: values.trace ? values['trace-kind'] : undefined,
});

process.env.TEST_POSTGRES_URL ??= process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const { createTestDatabase } = await import('@storage/testing/database');
const { onEveryStatement } = await import('@storage/testing/statements');

// Every statement the pg driver sends from this process, by its first word (--trace: each one's text, for the first
// command of --trace-kind: create, edit, moveIn or payment).
let tracing = false;
const statements = new Map<string, number>();
onEveryStatement((text) => {
  const kind = /^\s*(?:\/\*.*?\*\/\s*)?(\w+)/s.exec(text)?.[1]?.toUpperCase() ?? '?';
  statements.set(kind, (statements.get(kind) ?? 0) + 1);
  if (tracing) console.log(`    ${text.replace(/\s+/g, ' ').slice(0, 160)}`);
});
const countStatements = () => new Map(statements);
const statementsSince = (before: Map<string, number>) => {
  const delta = new Map<string, number>();
  for (const [kind, n] of statements) if (n - (before.get(kind) ?? 0) > 0) delta.set(kind, n - (before.get(kind) ?? 0));
  return delta;
};
const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

// Each command's wait for the read model, as the API's read-your-writes waits it.
const lags: number[] = [];
let lateCommands = 0;
const originalWait = ProjectionProgress.prototype.wait;
ProjectionProgress.prototype.wait = async function timedWait(this: ProjectionProgress, ...args: Parameters<typeof originalWait>) {
  const started = performance.now();
  const reached = await originalWait.apply(this, args);
  lags.push(performance.now() - started);
  if (!reached) lateCommands++;
  return reached;
};

interface RunResult {
  offered: number;
  achieved: number;
  p50: number;
  p99: number;
  failed: number;
  /** Commands answered 2xx whose change the next read did not show (edits overtaken not included). */
  missing: number;
  /** Edits whose read showed a later edit of the same customer. */
  overtaken: number;
  /** The p99 of the read-your-writes waits, at most READ_YOUR_WRITES_WAIT_MS. */
  lagP99: number;
  /** Whether the p99 wait is one that timed out: the lag is that or more. */
  lagP99Capped: boolean;
  late: number;
  statementsPerCommand: number;
  /** CPU time of this process (API, projector, reactions, queue) per command. */
  cpuMsPerCommand: number;
  /** CPU time of the client's process (requests, checking reads) per command. */
  clientCpuMsPerCommand: number;
  /** CPU time of the rest of the machine (PostgreSQL above all) per command; null off Linux. */
  restCpuMsPerCommand: number | null;
  /** How busy the machine's cores were during the run, 0 to 1; null off Linux. */
  machineBusy: number | null;
}

async function main() {
  const database = await createTestDatabase('bench_commands');
  const config = { ...readConfig({}), billingSchedule: null, redisUrl: undefined };
  let api: ApiServer | undefined;
  let projector: Awaited<ReturnType<typeof startProjector>> | undefined;
  let projectorPool: DatabasePool | undefined;
  try {
    api = await createApiServer({ config, databaseUrl: database.url, sessionKey: randomBytes(32), queuePrefix: database.name });
    // As `npm start` wires it (ops/src/start.ts): the projector on a pool of its own.
    projectorPool = await createDatabasePool(database.url, { maxPoolSize: PROJECTOR_POOL_SIZE });
    projector = await startProjector({
      pool: projectorPool,
      store: api.store,
      connection: queueConnection({ redisUrl: undefined, databaseUrl: database.url }),
      payments: config,
      schedule: config,
    });
    const server = api;
    const version = await server.pool.oneFirst(sql.unsafe`SELECT current_setting('server_version')`);
    console.log(
      `Machine: ${machine()}, ` +
        `PostgreSQL ${String(version)}, Node ${process.version}; event store: ${server.store.kind}, queue: BullMQ on PostgreSQL, API and projector in one process, the timed loads' client in another`,
    );
    console.log(`Load average (1/5/15 min) at start: ${load()}`);
    benchRun.environment.postgres = String(version);
    benchRun.environment.eventStore = server.store.kind;
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;

    const ctx = { store: server.store, pool: server.pool, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    const email = `bench-${randomUUID().slice(0, 8)}@staff.test`;
    const password = 'bench commands password';
    await registerStaff(ctx, { email, firstName: 'Bench', lastName: 'Owner', role: 'owner', password });
    await server.afterAppend((await server.store.newestPosition())!, 30_000);
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
      redirect: 'manual',
    });
    const cookie = sessionCookie(login.headers.getSetCookie());
    const call = caller(base, cookie);
    const must = async (method: string, path: string, body?: unknown) => {
      const r = await call(method, path, body);
      if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r.body;
    };

    // What the load works on: a facility, customers to edit, to take payments from and to move in, and vacant units.
    const started = performance.now();
    const facility = await must('POST', '/api/facilities', { name: 'Bench Storage', address: '1 Bench Rd', timeZone: 'America/Chicago' });
    const moveIns = Math.ceil(rates.reduce((a, r) => a + r, 0) * seconds * 0.2) + 2 * sequential;
    const inParallel = async <T>(n: number, make: (i: number) => Promise<T>) => {
      const out: T[] = new Array(n);
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < n) {
            const i = next++;
            out[i] = await make(i);
          }
        }),
      );
      return out;
    };
    const customer = (i: number, what: string) => customerBody(facility.id, i, what);
    const edited: string[] = (await inParallel(fixtureCount, (i) => must('POST', '/api/customers', customer(i, 'edited')))).map((c) => c.id);
    const paying: string[] = (await inParallel(fixtureCount, (i) => must('POST', '/api/customers', customer(i, 'paying')))).map((c) => c.id);
    const movers: string[] = (await inParallel(fixtureCount, (i) => must('POST', '/api/customers', customer(i, 'mover')))).map((c) => c.id);
    const units: string[] = (
      await inParallel(moveIns, (i) => must('POST', '/api/units', { unitNumber: `B-${i}`, building: 'B', monthlyRate: '100.00', facilityId: facility.id }))
    ).map((u) => u.id);
    console.log(
      `Set up ${edited.length + paying.length + movers.length} customers and ${units.length} units in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const fixtures: Fixtures = { base, cookie, facilityId: facility.id, edited, paying, movers, units };
    // The commands sent one at a time and in the burst below go from this process; the timed loads from the client's.
    const state: ClientState = { unitCursor: 0, created: 0, edits: 0, credits: [] };
    const commands = deskCommands(fixtures, state);
    // Statements per command, each kind sent one at a time with the system otherwise idle.
    console.log('');
    console.log('SQL statements per command (counted in-process: every query the pg driver sends, projector and queue included):');
    const idleBefore = countStatements();
    const idleStarted = performance.now();
    await sleep(idleSeconds * 1000);
    const idlePerSecond = total(statementsSince(idleBefore)) / ((performance.now() - idleStarted) / 1000);
    const perKind: Partial<Record<Kind, number>> = {};
    const checkingReads: Partial<Record<Kind, number>> = {};
    for (const kind of ['create', 'edit', 'moveIn', 'payment'] as const) {
      const n = sequential;
      const checks: Array<() => Promise<Shown>> = [];
      const before = countStatements();
      const kindStarted = performance.now();
      for (let i = 0; i < n; i++) {
        tracing = values.trace && kind === values['trace-kind'] && i === 0;
        const check = await commands[kind](1_000_000 + i);
        await sleep(50);
        tracing = false;
        if (!check) throw new Error(`${kind} failed in the sequential phase`);
        checks.push(check);
        // Let the projector's reactions and the queue settle, so each command pays for what it causes.
        await sleep(50);
      }
      const delta = statementsSince(before);
      const idle = (idlePerSecond * (performance.now() - kindStarted)) / 1000;
      // The checking reads are the console's next screen, not the command: counted apart.
      const readsBefore = countStatements();
      for (const check of checks) if ((await check()) !== 'shown') throw new Error(`${kind} did not show in the sequential phase`);
      const reads = total(statementsSince(readsBefore)) / n;
      const perCommand = (total(delta) - idle) / n;
      perKind[kind] = perCommand;
      checkingReads[kind] = reads;
      const byWord = [...delta.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([word, c]) => `${word} ${(c / n).toFixed(1)}`)
        .join(', ');
      console.log(
        `  ${kind}: ${perCommand.toFixed(1)} statements (${byWord}; idle background ${(idle / n).toFixed(1)} subtracted); its checking read ${reads.toFixed(1)}`,
      );
    }
    // Creates at 100/s: the projector's batch and the reactions' run shared by the creates they cover.
    const burstChecks: Array<() => Promise<Shown>> = [];
    const burstBefore = countStatements();
    const burstStarted = performance.now();
    await openLoop(100, burst, async (i) => {
      const check = await commands.create(i);
      if (check) burstChecks.push(check);
      return check !== null;
    });
    await sleep(500);
    const create = (total(statementsSince(burstBefore)) - (idlePerSecond * (performance.now() - burstStarted)) / 1000) / burst;
    for (const check of burstChecks) if ((await check()) !== 'shown') throw new Error('a create of the burst did not show');
    console.log(`  create at 100/s (open loop, ${burst} creates; the projector's batches and reactions shared): ${create.toFixed(1)} statements per create`);
    console.log(
      `  target: ${TARGET_CREATE_STATEMENTS} or fewer for a create: ${create <= TARGET_CREATE_STATEMENTS ? 'met' : 'not met'} under load (${create.toFixed(1)}); ` +
        `alone ${perKind.create!.toFixed(1)}`,
    );
    console.log(`  idle background (queue polling, safety-net wake-ups): ${idlePerSecond.toFixed(1)} statements/s`);

    // The peer: one INSERT per request, one SELECT to read it, over HTTP on the same database server.
    const peerPool = droppable(new pg.Pool({ connectionString: database.url, max: 10 }));
    await peerPool.query('CREATE TABLE bench_peer_customers (id uuid PRIMARY KEY, email text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())');
    // node:http rather than Fastify: ops declares no Fastify of its own, and the peer is the floor, not a rival framework.
    const peer = createServer((request, response) => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const read = /^\/customers\/([0-9a-f-]{36})$/.exec(request.url ?? '');
        const work =
          request.method === 'POST' && request.url === '/customers'
            ? (async () => {
                const id = randomUUID();
                const { email } = JSON.parse(Buffer.concat(chunks).toString()) as { email: string };
                await peerPool.query('INSERT INTO bench_peer_customers (id, email) VALUES ($1, $2)', [id, email]);
                answer(201, { id });
              })()
            : read
              ? peerPool.query('SELECT id, email FROM bench_peer_customers WHERE id = $1', [read[1]]).then(({ rows }) => answer(200, rows[0] ?? null))
              : Promise.resolve(answer(404, null));
        work.catch(() => answer(500, null));
      });
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    const peerBase = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;

    // The timed loads come from a child process: its requests and checking reads off this process's CPU.
    const client = fork(new URL('./commands-client.ts', import.meta.url), ['--bench-client'], { stdio: 'inherit' });
    const inClient = (request: ClientRequest) =>
      new Promise<ClientReply>((resolve, reject) => {
        const exited = (code: number | null) => reject(new Error(`the bench client exited (${code}) during a run`));
        client.once('exit', exited);
        client.once('message', (reply) => {
          client.off('exit', exited);
          resolve(reply as ClientReply);
        });
        client.send(request);
      });
    const results: RunResult[] = [];
    const peerResults: Array<{ achieved: number; p50: number; p99: number; clientCpuMsPerCommand: number }> = [];
    try {
      let clientState: ClientState = state;
      for (const rate of rates) {
        const count = Math.round(rate * seconds);
        await sleep(1000);
        lags.length = 0;
        lateCommands = 0;
        const before = countStatements();
        const cpuBefore = process.cpuUsage();
        const machineBefore = machineCpu();
        const runStarted = performance.now();
        const run = await inClient({ kind: 'ours', rate, count, fixtures, state: clientState });
        clientState = run.state!;
        const cpu = process.cpuUsage(cpuBefore);
        const machineBusyMs = machineBusyMsSince(machineBefore);
        const runMs = performance.now() - runStarted;
        const ran = total(statementsSince(before));
        const lagP99 = percentile(lags, 99);
        results.push({
          offered: rate,
          achieved: run.achieved,
          p50: percentile(run.latencies, 50),
          p99: percentile(run.latencies, 99),
          failed: run.failed,
          missing: run.missing,
          overtaken: run.overtaken,
          lagP99,
          // A wait that timed out ran to the cap: when the p99 is one of them, the lag is the cap or more.
          lagP99Capped: lateCommands > 0 && lagP99 >= READ_YOUR_WRITES_WAIT_MS,
          late: lateCommands,
          statementsPerCommand: ran / count,
          cpuMsPerCommand: (cpu.user + cpu.system) / 1000 / count,
          clientCpuMsPerCommand: run.cpuMs / count,
          restCpuMsPerCommand: machineBusyMs === null ? null : (machineBusyMs - (cpu.user + cpu.system) / 1000 - run.cpuMs) / count,
          machineBusy: machineBusyMs === null ? null : machineBusyMs / (availableParallelism() * runMs),
        });
        await sleep(1000);
        const peerRun = await inClient({ kind: 'peer', rate, count, peerBase });
        peerResults.push({
          achieved: peerRun.achieved,
          p50: percentile(peerRun.latencies, 50),
          p99: percentile(peerRun.latencies, 99),
          clientCpuMsPerCommand: peerRun.cpuMs / count,
        });
      }
    } finally {
      client.kill();
    }
    await new Promise((resolve) => peer.close(resolve));
    await peerPool.end();

    console.log('');
    console.log(
      `Mixed commands (40% creates, 25% edits, 20% move-ins, 15% desk payments) for ${seconds} s per rate, open loop; latency from each request's scheduled time to its answer:`,
    );
    console.log(
      '| offered/s | achieved/s | p50 ms | p99 ms | failed | not shown after 2xx | edits overtaken by a later edit | read-your-writes wait p99 ms | waits timed out at 2 s | statements/command | server CPU ms/command | client CPU ms/command | PostgreSQL and the rest, CPU ms/command | machine busy | peer achieved/s | peer p99 ms | p99 ours/peer |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    const lagText = (r: RunResult) => (r.lagP99Capped ? `≥ ${READ_YOUR_WRITES_WAIT_MS} (capped)` : r.lagP99.toFixed(0));
    results.forEach((r, i) => {
      const p = peerResults[i]!;
      console.log(
        `| ${r.offered} | ${r.achieved.toFixed(1)} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.failed} | ${r.missing} | ${r.overtaken} | ${lagText(r)} | ${r.late} | ${r.statementsPerCommand.toFixed(1)} | ${r.cpuMsPerCommand.toFixed(1)} | ${r.clientCpuMsPerCommand.toFixed(1)} | ${r.restCpuMsPerCommand?.toFixed(1) ?? 'n/a'} | ${r.machineBusy === null ? 'n/a' : `${Math.round(r.machineBusy * 100)} %`} | ` +
          `${p.achieved.toFixed(1)} | ${p.p99.toFixed(0)} | ${(r.p99 / p.p99).toFixed(1)}× |`,
      );
    });
    console.log(
      '"not shown after 2xx": commands answered 2xx whose change the console\'s next read did not show; an edit whose read showed another edit of the same customer ' +
        'that its history has after it was overtaken, not lost, and is counted in its own column instead. "read-your-writes wait": each command\'s wait for the read model to pass its events, timed in the ' +
        `API; the wait ends at ${READ_YOUR_WRITES_WAIT_MS} ms whatever the projector's lag, so no lag above that is seen: a p99 among the waits that timed out shows as "≥ ${READ_YOUR_WRITES_WAIT_MS} (capped)".`,
    );
    const atTarget = results.find((r) => r.offered === TARGET_RATE);
    let target: Record<string, unknown> = { rate: TARGET_RATE, measured: false };
    if (atTarget) {
      const sustained = atTarget.achieved >= TARGET_RATE * 0.98 && atTarget.failed === 0;
      const p99Met = atTarget.p99 < TARGET_P99_MS;
      const lagMet = !atTarget.lagP99Capped && atTarget.lagP99 < TARGET_LAG_P99_MS;
      console.log(
        `Target at ${TARGET_RATE}/s: sustained ${sustained ? 'met' : 'not met'} (${atTarget.achieved.toFixed(1)}/s); ` +
          `p99 under ${TARGET_P99_MS} ms ${p99Met ? 'met' : 'not met'} (${atTarget.p99.toFixed(0)} ms); ` +
          `read-your-writes wait (projection lag) p99 under ${TARGET_LAG_P99_MS} ms ${lagMet ? 'met' : 'not met'} (${lagText(atTarget)} ms); ` +
          `read-your-writes for every command ${atTarget.missing === 0 ? 'met' : `not met (${atTarget.missing} not shown)`}` +
          (atTarget.overtaken > 0 ? ` (${atTarget.overtaken} edits overtaken by a later edit of the same customer, not misses)` : ''),
      );
      target = {
        rate: TARGET_RATE,
        measured: true,
        sustained,
        p99UnderMs: TARGET_P99_MS,
        p99Met,
        readYourWritesWaitP99UnderMs: TARGET_LAG_P99_MS,
        readYourWritesWaitP99Met: lagMet,
        everyCommandShown: atTarget.missing === 0,
      };
    }
    // What CPU allows: at the rates that fell short, how busy the machine was and what a command cost it.
    const short = results.filter((r) => r.achieved < r.offered * 0.98 && r.machineBusy !== null);
    if (short.length > 0) {
      const cores = availableParallelism();
      const product = Math.min(...short.map((r) => r.cpuMsPerCommand + r.restCpuMsPerCommand!));
      const client = Math.min(...short.map((r) => r.clientCpuMsPerCommand));
      const budget = (cores * 1000) / TARGET_RATE - client;
      console.log(
        `CPU: where the rate fell short (${short.map((r) => `${r.offered}/s offered, the machine ${Math.round(r.machineBusy! * 100)} % busy`).join('; ')}), ` +
          `the product (this process and PostgreSQL) spent at least ${product.toFixed(1)} CPU-ms a command with its checking read: ` +
          `${cores} cores carry at most ${Math.floor((cores * 1000) / product)} commands/s at that cost with nothing else running, and ` +
          `${TARGET_RATE}/s here needs at most ${budget.toFixed(1)} (${cores} cores over ${TARGET_RATE}/s, less the client's ${client.toFixed(1)})`,
      );
    }
    console.log(`Load average (1/5/15 min) at end: ${load()}`);
    benchRun.write({
      statementsPerCommandAlone: perKind,
      checkingReadStatementsPerCommand: checkingReads,
      createUnderLoad: { ratePerSecond: 100, creates: burst, statementsPerCreate: create },
      createStatementsTarget: { atMost: TARGET_CREATE_STATEMENTS, met: create <= TARGET_CREATE_STATEMENTS },
      idleBackgroundStatementsPerSecond: idlePerSecond,
      readYourWritesWaitCapMs: READ_YOUR_WRITES_WAIT_MS,
      mixedLoad: results.map((r, i) => ({
        offeredPerSecond: r.offered,
        achievedPerSecond: r.achieved,
        p50Ms: r.p50,
        p99Ms: r.p99,
        failed: r.failed,
        notShownAfter2xx: r.missing,
        editsOvertakenByALaterEditOfTheSameCustomer: r.overtaken,
        readYourWritesWaitP99Ms: r.lagP99,
        readYourWritesWaitP99Capped: r.lagP99Capped,
        waitsTimedOut: r.late,
        statementsPerCommand: r.statementsPerCommand,
        serverCpuMsPerCommand: r.cpuMsPerCommand,
        clientCpuMsPerCommand: r.clientCpuMsPerCommand,
        restCpuMsPerCommand: r.restCpuMsPerCommand,
        machineBusy: r.machineBusy,
        peer: { achievedPerSecond: peerResults[i]!.achieved, p50Ms: peerResults[i]!.p50, p99Ms: peerResults[i]!.p99 },
        p99OursOverPeer: r.p99 / peerResults[i]!.p99,
      })),
      target,
    });
  } finally {
    await projector?.stop();
    await projectorPool?.end();
    await api?.close();
    if (values.keep) console.log(`Kept the database ${database.name}`);
    else await database.drop();
  }
}

await main();
