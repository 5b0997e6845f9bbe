// The API as its own process (distributed mode): `npm run start:api`.

import { fileURLToPath } from 'node:url';
import { loadConfig } from '@storage/platform/config';
import { sessionKeyFrom } from '@storage/platform/session-key';
import { processLogger } from './http/logger.ts';
import { createApiServer } from './server.ts';

const config = loadConfig({ required: ['DATABASE_URL', 'SESSION_SECRET'], by: '`npm run start:api` (`npm start` runs the embedded default)' });
if (!config.databaseUrl || !config.sessionSecret) throw new Error('unreachable: loadConfig requires DATABASE_URL and SESSION_SECRET');

const server = await createApiServer({
  config,
  databaseUrl: config.databaseUrl,
  sessionKey: sessionKeyFrom(config.sessionSecret),
  staticRoots: {
    console: fileURLToPath(new URL('../../console/dist', import.meta.url)),
    portal: fileURLToPath(new URL('../../portal/dist', import.meta.url)),
  },
  logger: processLogger(config.logLevel),
});
await server.app.listen({ port: config.port, host: config.host });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
