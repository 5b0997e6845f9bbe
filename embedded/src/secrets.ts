import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { createFileAtomic } from './atomic-file.ts';

// Secrets the embedded default makes once and keeps in DATA_DIR (never in the repository).
const Secrets = z.object({ sessionSecret: z.string().min(32), databasePassword: z.string().min(16) });
export type Secrets = z.infer<typeof Secrets>;

export const SECRETS_FILE = 'secrets.json';

/** The secrets DATA_DIR holds, or null when it holds none a start may not make afresh. */
async function readSecrets(dataDir: string): Promise<Secrets | null> {
  const file = join(dataDir, SECRETS_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let problem: string;
  try {
    return Secrets.parse(JSON.parse(text));
  } catch (error) {
    problem = error instanceof z.ZodError ? 'a secret is missing or too short' : 'it is not JSON';
  }
  // The database password is the embedded PostgreSQL's: once a cluster was made with it, new
  // secrets would lock the product out of its own data.
  if (existsSync(join(dataDir, 'postgres', 'PG_VERSION'))) {
    throw new Error(
      `${file} is damaged (${problem}) and the embedded PostgreSQL in ${join(dataDir, 'postgres')} was made with the password it held: ` +
        `restore the file from a backup, or delete ${dataDir} to start over with a new demo dataset`,
    );
  }
  // Left by an earlier version stopped while writing it, before any cluster used it: made afresh.
  await rm(file, { force: true });
  return null;
}

export async function loadOrCreateSecrets(dataDir: string): Promise<Secrets> {
  const existing = await readSecrets(dataDir);
  if (existing) return existing;
  const secrets = { sessionSecret: randomBytes(32).toString('hex'), databasePassword: randomBytes(18).toString('base64url') };
  await mkdir(dataDir, { recursive: true });
  // Whole or not at all; and a start that made them at the same moment keeps its own, which its
  // cluster may already use: this one then takes those.
  if (await createFileAtomic(join(dataDir, SECRETS_FILE), JSON.stringify(secrets, null, 2), 0o600)) return secrets;
  const made = await readSecrets(dataDir);
  if (!made) throw new Error(`${join(dataDir, SECRETS_FILE)} disappeared while this start was reading it`);
  return made;
}
