import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { processLogger } from '@storage/api/http/logger';
import { createApiServer } from '@storage/api/server';
import { registerStaff } from '@storage/domain/auth/staff';
import { runBillingDay } from '@storage/domain/billing/run';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@storage/embedded/postgres';
import { loadOrCreateSecrets } from '@storage/embedded/secrets';
import { connectEventStore } from '@storage/eventstore/connect';
import type { EventStore, Position } from '@storage/eventstore/port';
import { waitForProjections } from '@storage/platform/checkpoints';
import { type Config, DEFAULT_DEMO_PASSWORD } from '@storage/platform/config';
import { createDatabasePool, PROJECTOR_POOL_SIZE } from '@storage/platform/db';
import { reportLag } from '@storage/platform/health';
import { createPaymentProvider } from '@storage/platform/payments/configured-provider';
import { queueConnection } from '@storage/platform/queues';
import { sessionKeyFrom } from '@storage/platform/session-key';
import { readModelProjections } from '@storage/projector/projections';
import { catchUpTo } from '@storage/projector/runner';
import { startProjector } from '@storage/projector/service';
import { DEMO_STAFF, seedDemoData } from '@storage/seed/demo';
import { type DemoSeedState, demoSeedState, forgetDemoSeeded, listenProblem, markDemoSeeded, portProblem } from './first-start.ts';

const staticRoots = {
  console: fileURLToPath(new URL('../../console/dist', import.meta.url)),
  portal: fileURLToPath(new URL('../../portal/dist', import.meta.url)),
};

/**
 * One process with the API, the projector and the scheduler. With no DATABASE_URL it runs on
 * an embedded PostgreSQL in DATA_DIR and seeds the demo dataset on the first start; a first start
 * that stopped before its setup was done is finished (or its seed redone) by the next one.
 */
export async function startAll(config: Config, log: (line: string) => void = console.log) {
  // Before anything is made: a start that cannot listen would set up, and seed, for nothing.
  const problem = await portProblem(config.host, config.port);
  if (problem) throw new Error(problem);
  const secrets = await loadOrCreateSecrets(config.dataDir);
  /** What this start has started, stopped in the reverse order if it fails on the way. */
  const started: (() => Promise<void> | void)[] = [];
  let stopping = false;
  const stopStarted = async () => {
    stopping = true;
    let failure: unknown;
    for (let stop = started.pop(); stop; stop = started.pop()) {
      try {
        await stop();
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  };
  try {
    let embedded: EmbeddedDatabase | null = null;
    let seed: DemoSeedState = 'done';
    if (!config.databaseUrl) {
      const database = await startEmbeddedPostgres(config.dataDir, secrets.databasePassword, { debug: config.debugEmbeddedPostgres });
      embedded = database;
      started.push(() => database.stop());
      log(`Embedded PostgreSQL on port ${database.port} (data in ${config.dataDir})`);
      // Decided before the projector starts: its scheduled processes may append at once.
      seed = await withStore(config, database.url, (store) => demoSeedState(store, config.dataDir));
      if (seed === 'interrupted') {
        if (config.eventStoreUrl) {
          log('The first start stopped while seeding the demo dataset, whose events in EVENTSTORE_URL cannot be taken back: it stays partial.');
        } else {
          // Nothing but the seed wrote there (no staff account existed to sign in with).
          log('The first start stopped while seeding the demo dataset: seeding it again from the start.');
          await database.recreateDatabase();
          seed = 'none';
        }
      }
    }
    const databaseUrl = config.databaseUrl ?? embedded!.url;
    const api = await createApiServer({
      config,
      databaseUrl,
      sessionKey: sessionKeyFrom(config.sessionSecret ?? secrets.sessionSecret),
      staticRoots,
      logger: processLogger(config.logLevel, undefined, () => stopping),
    });
    started.push(() => api.close());
    // The projector has connections of its own: queued behind a burst of requests on the API's
    // pool, the catch-up those requests wait for would wait for them (read-your-writes would then
    // time out under load).
    const projectorPool = await createDatabasePool(databaseUrl, { maxPoolSize: PROJECTOR_POOL_SIZE });
    started.push(() => projectorPool.end());
    const projector = await startProjector({
      pool: projectorPool,
      store: api.store,
      connection: queueConnection({ redisUrl: config.redisUrl, databaseUrl }),
      payments: config,
      schedule: config,
      messages: config,
      log: (message, error) => (error === undefined ? api.app.log.info(message) : api.app.log.error({ err: error }, message)),
    });
    started.push(() => projector.stop());
    if (seed === 'none') {
      log('First start: seeding the demo dataset...');
      await forgetDemoSeeded(config.dataDir);
      const ctx = { store: api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
      const readModel = { pool: api.pool, catchUpTo: (position: Position) => catchUpTo(api.pool, api.store, readModelProjections, position, 120_000) };
      await seedDemoData({ store: api.store, ...readModel }, { now: new Date() });
      const { position } = await registerStaff({ ...ctx, pool: api.pool }, { ...DEMO_STAFF, password: config.demoPassword });
      // Sign-in reads the staff table: let the read model catch up before opening the door.
      if (position) await waitForProjections(api.pool, position, 120_000);
      // The day's billing run on the demo (the projector's first run came before the demo existed).
      if (config.billingSchedule) {
        const day = await runBillingDay({ pool: api.pool, store: api.store, provider: createPaymentProvider(config, api.pool) }, new Date());
        if (day.position) await waitForProjections(api.pool, day.position, 120_000);
      }
      await markDemoSeeded(config.dataDir);
      log('Demo data seeded.');
    }
    started.push(reportLag(api, (level, fields, message) => api.app.log[level](fields, message)));
    try {
      await api.app.listen({ port: config.port, host: config.host });
    } catch (error) {
      // Taken since the check above: the setup is done, so the next start only has to listen.
      const problem = listenProblem(error, config.host, config.port);
      throw problem ? new Error(problem) : error;
    }
    const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
    log('');
    log(`Self-storage platform running at ${url}`);
    if (embedded)
      log(`Demo staff login: ${DEMO_STAFF.email} / ${config.demoPassword === DEFAULT_DEMO_PASSWORD ? config.demoPassword : '(the DEMO_PASSWORD you set)'}`);
    return { url, stop: stopStarted };
  } catch (error) {
    // Everything this start started, or the process would stay up on a dead database.
    await stopStarted().catch((stopError: unknown) => log(`While stopping after the failed start: ${String(stopError)}`));
    throw error;
  }
}

/** The event store of this start, for one question before the API opens it. */
async function withStore<T>(config: Config, databaseUrl: string, ask: (store: EventStore) => Promise<T>): Promise<T> {
  const store = await connectEventStore({ eventStoreUrl: config.eventStoreUrl, databaseUrl });
  try {
    return await ask(store);
  } finally {
    await store.close();
  }
}
