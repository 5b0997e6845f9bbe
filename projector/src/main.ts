// The projector as its own process (distributed mode): `npm run start:projector`.
import { connectEventStore } from '@storage/eventstore/connect';
import { loadConfig } from '@storage/platform/config';
import { createDatabasePool } from '@storage/platform/db';
import { reportLag, startHealthServer } from '@storage/platform/health';
import { migrateReadModel } from '@storage/platform/migrate';
import { createQueue, queueConnection } from '@storage/platform/queues';
import { PROJECTOR_QUEUE } from '@storage/platform/wakeups';
import { startProjector } from './service.ts';

// JSON lines as the API's log writes them, with pino's levels.
const levels = { info: 30, warn: 40, error: 50 } as const;
function writeLog(level: keyof typeof levels, fields: Record<string, unknown>, msg: string) {
  console.log(JSON.stringify({ level: levels[level], time: Date.now(), ...fields, msg }));
}
function serializeError(error: unknown) {
  return error instanceof Error ? { type: error.name, message: error.message, stack: error.stack } : { message: String(error) };
}

const config = loadConfig({ required: ['DATABASE_URL'], by: '`npm run start:projector` (`npm start` runs the embedded default)' });
if (!config.databaseUrl) throw new Error('unreachable: loadConfig requires DATABASE_URL');

const pool = await createDatabasePool(config.databaseUrl);
await migrateReadModel(config.databaseUrl);
const store = await connectEventStore({ eventStoreUrl: config.eventStoreUrl, databaseUrl: config.databaseUrl });
const connection = queueConnection({ redisUrl: config.redisUrl, databaseUrl: config.databaseUrl });
const projector = await startProjector({
  pool,
  store,
  connection,
  payments: config,
  schedule: config,
  messages: config,
  log: (message, error) => writeLog(error === undefined ? 'info' : 'error', error === undefined ? {} : { err: serializeError(error) }, message),
});
const healthQueue = createQueue(PROJECTOR_QUEUE, connection);
const health = await startHealthServer({ pool, store, queue: healthQueue }, { port: config.projectorHealthPort, host: config.host });
console.log(`Projector running; health answers on http://${config.host}:${health.port}/api/health/ready`);
const stopLagReports = reportLag({ pool, store }, writeLog);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void (async () => {
      stopLagReports();
      await health.close();
      await projector.stop();
      await healthQueue.close();
      await store.close();
      await pool.end();
      process.exit(0);
    })();
  });
}
