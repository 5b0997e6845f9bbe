import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

// Secrets the embedded default makes once and keeps in DATA_DIR (never in the repository).
const Secrets = z.object({ sessionSecret: z.string().min(32), databasePassword: z.string().min(16) });
export type Secrets = z.infer<typeof Secrets>;

export async function loadOrCreateSecrets(dataDir: string): Promise<Secrets> {
  const file = join(dataDir, 'secrets.json');
  try {
    return Secrets.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets = { sessionSecret: randomBytes(32).toString('hex'), databasePassword: randomBytes(18).toString('base64url') };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
