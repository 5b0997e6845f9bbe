import type { EventType } from '@storage/contracts/events';
import type { EventStore, Position } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

// Steps the write side takes once per install when a release needs the history written by an
// earlier one brought into a new shape of its streams (write_side_upgrades, migration 048):
// events are appended, the history is never edited. Each step runs before the API takes a command.

const READ_BATCH = 5000;
const Done = z.object({ done: z.boolean() });

/**
 * Runs `step` unless this install has run it; of two processes starting at once, the second waits
 * for the first and finds it done. `step` answers how many events it appended and a line for the
 * record. Returns that count (0 when done before).
 */
export async function oncePerInstall(pool: DatabasePool, name: string, step: () => Promise<{ appended: number; detail: string }>): Promise<number> {
  return pool.connect(async (connection) => {
    await connection.query(sql.unsafe`SELECT pg_advisory_lock(hashtext(${name}))`);
    try {
      const done = await connection.oneFirst(sql.type(Done)`SELECT exists(SELECT 1 FROM write_side_upgrades WHERE name = ${name}) AS done`);
      if (done) return 0;
      const { appended, detail } = await step();
      await connection.query(sql.unsafe`INSERT INTO write_side_upgrades (name, detail) VALUES (${name}, ${detail})`);
      return appended;
    } finally {
      await connection.query(sql.unsafe`SELECT pg_advisory_unlock(hashtext(${name}))`);
    }
  });
}

/** The data of every event of `type` in the log, in the log's order: the log read once, in batches. */
export async function dataOfEvents(store: EventStore, type: EventType): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let after: Position | null = null;
  for (;;) {
    const batch = await store.readAll({ after, limit: READ_BATCH });
    for (const event of batch) if (event.type === type) found.push(event.data);
    if (batch.length < READ_BATCH) break;
    after = batch.at(-1)!.position;
  }
  return found;
}
