// The projector as its own process (distributed mode): `npm run start:projector`.
import { connectEventStore } from '@storage/eventstore/connect';
import { loadConfig } from '@storage/platform/config';
import { createDatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { queueConnection } from '@storage/platform/queues';
import { startProjector } from './service.ts';

const config = loadConfig({ required: ['DATABASE_URL'], by: '`npm run start:projector` (`npm start` runs the embedded default)' });
if (!config.databaseUrl) throw new Error('unreachable: loadConfig requires DATABASE_URL');

const pool = await createDatabasePool(config.databaseUrl);
await migrateReadModel(config.databaseUrl);
const store = await connectEventStore({ eventStoreUrl: config.eventStoreUrl, databaseUrl: config.databaseUrl });
const projector = await startProjector({
  pool,
  store,
  connection: queueConnection({ redisUrl: config.redisUrl, databaseUrl: config.databaseUrl }),
  payments: config,
  schedule: config,
  log: (message, error) => console.error(message, error),
});
console.log('Projector running');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void (async () => {
      await projector.stop();
      await store.close();
      await pool.end();
      process.exit(0);
    })();
  });
}
