import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { processLogger } from '@storage/api/http/logger';
import { createApiServer } from '@storage/api/server';
import { registerStaff } from '@storage/domain/auth/staff';
import { runBillingDay } from '@storage/domain/billing/run';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@storage/embedded/postgres';
import { loadOrCreateSecrets } from '@storage/embedded/secrets';
import type { Position } from '@storage/eventstore/port';
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

const staticRoots = {
  console: fileURLToPath(new URL('../../console/dist', import.meta.url)),
  portal: fileURLToPath(new URL('../../portal/dist', import.meta.url)),
};

/**
 * One process with the API, the projector and the scheduler. With no DATABASE_URL it runs on
 * an embedded PostgreSQL in DATA_DIR and seeds the demo dataset on the first start.
 */
export async function startAll(config: Config, log: (line: string) => void = console.log) {
  const secrets = await loadOrCreateSecrets(config.dataDir);
  let embedded: EmbeddedDatabase | null = null;
  if (!config.databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, secrets.databasePassword, { debug: config.debugEmbeddedPostgres });
    log(`Embedded PostgreSQL on port ${embedded.port} (data in ${config.dataDir})`);
  }
  const databaseUrl = config.databaseUrl ?? embedded!.url;
  try {
    const api = await createApiServer({
      config,
      databaseUrl,
      sessionKey: sessionKeyFrom(config.sessionSecret ?? secrets.sessionSecret),
      staticRoots,
      logger: processLogger(config.logLevel),
    });
    // Decided before the projector starts: its scheduled processes may append at once.
    const firstStart = embedded !== null && (await api.store.headPosition()) === null;
    // The projector has connections of its own: queued behind a burst of requests on the API's
    // pool, the catch-up those requests wait for would wait for them (read-your-writes would then
    // time out under load).
    const projectorPool = await createDatabasePool(databaseUrl, { maxPoolSize: PROJECTOR_POOL_SIZE });
    const projector = await startProjector({
      pool: projectorPool,
      store: api.store,
      connection: queueConnection({ redisUrl: config.redisUrl, databaseUrl }),
      payments: config,
      schedule: config,
      messages: config,
      log: (message, error) => (error === undefined ? api.app.log.info(message) : api.app.log.error({ err: error }, message)),
    });
    if (firstStart) {
      log('First start: seeding the demo dataset...');
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
      log('Demo data seeded.');
    }
    const stopLagReports = reportLag(api, (level, fields, message) => api.app.log[level](fields, message));
    await api.app.listen({ port: config.port, host: config.host });
    const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
    log('');
    log(`Self-storage platform running at ${url}`);
    if (embedded)
      log(`Demo staff login: ${DEMO_STAFF.email} / ${config.demoPassword === DEFAULT_DEMO_PASSWORD ? config.demoPassword : '(the DEMO_PASSWORD you set)'}`);
    return {
      url,
      async stop() {
        stopLagReports();
        await projector.stop();
        await projectorPool.end();
        await api.close();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
