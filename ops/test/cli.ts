// The ops command line as an operator runs it: its own Node process on the database given.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

/** Runs `npm run ops -- <args>` against `databaseUrl` (no Redis, the Postgres event store): its exit code and all it printed. */
export function runCli(args: string[], databaseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: '', EVENTSTORE_URL: '' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
  });
}
