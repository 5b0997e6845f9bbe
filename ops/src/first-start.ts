import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { writeFileAtomic } from '@storage/embedded/atomic-file';
import type { EventStore, Position } from '@storage/eventstore/port';

// What the first `npm start` on the embedded default sets up once its database stands: the demo
// dataset and the demo owner's login. A first start stopped on the way (Ctrl-C while seeding, a
// crash, a port found taken when it came to listen) must leave something the next start finishes,
// not an install that starts without its demo login, or never starts again.

/** In DATA_DIR: written once the demo dataset and its owner's login are all in. */
export const DEMO_SEEDED_FILE = 'demo-seeded';

/**
 * - `none`: the event store is empty: seed it.
 * - `done`: the first start's setup finished.
 * - `interrupted`: a first start stopped while seeding: its events are only part of the demo.
 */
export type DemoSeedState = 'none' | 'done' | 'interrupted';

/** Whether any staff account was ever registered: the seed's last step registers the demo owner. */
async function staffRegistered(store: EventStore): Promise<boolean> {
  for (let after: Position | null = null; ; ) {
    const batch = await store.readAll({ after, limit: 5000 });
    if (batch.length === 0) return false;
    if (batch.some((event) => event.type === 'staff_registered')) return true;
    after = batch.at(-1)!.position;
  }
}

export async function demoSeedState(store: EventStore, dataDir: string): Promise<DemoSeedState> {
  if ((await store.newestPosition()) === null) return 'none';
  if (existsSync(join(dataDir, DEMO_SEEDED_FILE))) return 'done';
  // Seeded by a version that wrote no marker, which registered the demo owner after the dataset;
  // or an owner made with `ops staff:create`. Either way it holds an account: never redone.
  if (await staffRegistered(store)) {
    await markDemoSeeded(dataDir);
    return 'done';
  }
  return 'interrupted';
}

export async function markDemoSeeded(dataDir: string): Promise<void> {
  await writeFileAtomic(join(dataDir, DEMO_SEEDED_FILE), `${new Date().toISOString()}\n`);
}

/** Before seeding: a marker of an earlier cluster (its `postgres` folder deleted) says nothing of this one. */
export async function forgetDemoSeeded(dataDir: string): Promise<void> {
  await rm(join(dataDir, DEMO_SEEDED_FILE), { force: true });
}

/** Why the product cannot listen on host:port, in words that name the port and what to do; null when it can. */
export function listenProblem(error: unknown, host: string, port: number): string | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case undefined:
      return null;
    case 'EADDRINUSE':
      return (
        `Port ${port} on ${host} is already in use: another program (or another npm start) listens there. ` +
        `Stop it, or start on another port: PORT=${port === 65535 ? 3000 : port + 1} npm start`
      );
    case 'EACCES':
      return `Port ${port} on ${host} needs privileges this process lacks: start on a port above 1023, e.g. PORT=3000 npm start`;
    case 'EADDRNOTAVAIL':
      return `HOST ${host} is not an address of this machine: set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for all)`;
    default:
      return `Cannot listen on ${host}:${port} (${code}): set PORT and HOST to a free port on an address of this machine`;
  }
}

/** The listen problem of host:port, found by listening there a moment; null when the port is free. */
export function portProblem(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error) => resolve(listenProblem(error, host, port)));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(null)));
  });
}
