import { randomUUID } from 'node:crypto';
import type { EventType } from '@storage/contracts/events';
import type { Position } from '@storage/eventstore/port';
import { createPostgresEventStore, type PostgresEventStore } from '@storage/eventstore/postgres';
import { readConfig } from '@storage/platform/config';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { failingReactions } from '@storage/platform/health';
import { migrateReadModel } from '@storage/platform/migrate';
import { queueConnection } from '@storage/platform/queues';
import type { ProjectedEvent } from '@storage/projector/projection';
import { readModelProjections } from '@storage/projector/projections';
import type { Reaction } from '@storage/projector/reactions/reaction';
import { ensureReactionCheckpoints, runReactions } from '@storage/projector/reactions/runner';
import { rebuildReadModel } from '@storage/projector/rebuild';
import { catchUp, catchUpTo, ensureCheckpoints } from '@storage/projector/runner';
import { startProjector } from '@storage/projector/service';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '@storage/testing/database';
import { statementsOf } from '@storage/testing/statements';
import { sql } from 'slonik';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Reactions act on events after the read model has applied them, each on a checkpoint of its own:
// from the log's head when first seen, once per event whatever the number of runners, again after
// a failure (later, with a growing delay) while the others go on, and never again after a rebuild.

describe('reactions', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let pool: DatabasePool;

  beforeAll(async () => {
    database = await createTestDatabase('reactions');
    await migrateReadModel(database.url);
    store = await createPostgresEventStore({ connectionString: database.url });
    await store.migrate();
    pool = await createDatabasePool(database.url);
    await ensureCheckpoints(pool, readModelProjections);
  });
  afterAll(async () => {
    await pool?.end();
    await store?.close();
    await database?.drop();
  });

  const metadata = () => ({
    actor: { type: 'system' as const },
    correlationId: randomUUID(),
    causationId: null,
    schemaVersion: 1,
    occurredAt: new Date().toISOString(),
  });
  /** The newest event this file appended. */
  let newest: Position | undefined;
  const addCustomer = async (lastName: string): Promise<{ id: string; customerId: string; position: Position }> => {
    const customerId = randomUUID();
    const id = randomUUID();
    const data = {
      customerId,
      firstName: 'Rea',
      lastName,
      email: `${lastName.toLowerCase()}-${customerId.slice(0, 6)}@example.com`,
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      status: 'active',
      facilityId: null,
    };
    const { position } = await store.append(`customer-${customerId}`, [{ id, type: 'customer_added', data, metadata: metadata() }], {
      expectedRevision: 'no_stream',
    });
    newest = position;
    return { id, customerId, position };
  };
  // Until the read model has passed it: one catch-up may stop short of it while a transaction of
  // another file is open on the cluster (the store reads below the oldest open one).
  const projected = () => (newest ? catchUpTo(pool, store, readModelProjections, newest) : catchUp(pool, store, readModelProjections));
  const shownLastName = (customerId: string) =>
    pool.maybeOneFirst(sql.type(z.object({ last_name: z.string() }))`SELECT last_name FROM customers WHERE id = ${customerId}`);

  /** A reaction that records what it was shown, and what the read model showed it then. */
  function recorder(name: string, types: EventType[] = ['customer_added']) {
    const seen: { id: string; shown: string | null }[] = [];
    const failOn = new Set<string>();
    const reaction: Reaction = {
      name,
      types,
      async react(event: ProjectedEvent) {
        if (failOn.has(event.id)) throw new Error(`cannot act on ${event.id} yet`);
        seen.push({ id: event.id, shown: event.type === 'customer_added' ? await shownLastName(event.data.customerId) : null });
      },
    };
    return { reaction, seen, failOn };
  }

  beforeEach(async () => {
    await projected();
  });

  it('starts at the head of the log, and is shown each later event once the read model shows it', async () => {
    const before = await addCustomer('Before');
    await projected();
    const { reaction, seen } = recorder(`r-${randomUUID()}`);
    await ensureReactionCheckpoints(pool, store, [reaction]);
    const after = await addCustomer('After');
    // Not yet projected: the reaction waits for the read model.
    expect((await runReactions([reaction], { pool, store })).reacted).toBe(0);
    await projected();
    expect((await runReactions([reaction], { pool, store })).reacted).toBe(1);
    expect(seen).toEqual([{ id: after.id, shown: 'After' }]);
    expect(seen.map((s) => s.id)).not.toContain(before.id);
    // Nothing new: nothing again.
    expect((await runReactions([reaction], { pool, store })).reacted).toBe(0);
  });

  it('skips event types it does not follow, and moves past them', async () => {
    const { reaction, seen } = recorder(`r-${randomUUID()}`, ['invoice_sent']);
    await ensureReactionCheckpoints(pool, store, [reaction]);
    await addCustomer('Skipped');
    await projected();
    expect((await runReactions([reaction], { pool, store })).reacted).toBe(0);
    expect(seen).toEqual([]);
    const row = await pool.one(
      sql.type(z.object({ hi: z.string().nullable() }))`SELECT position_hi::text AS hi FROM reaction_checkpoints WHERE name = ${reaction.name}`,
    );
    expect(row.hi).toBe((await store.headPosition())!.hi.toString());
  });

  it('retries an event it failed on later, after the others, and then goes on, exactly once each', async () => {
    const failing = recorder(`r-${randomUUID()}`);
    const healthy = recorder(`r-${randomUUID()}`);
    await ensureReactionCheckpoints(pool, store, [failing.reaction, healthy.reaction]);
    const first = await addCustomer('First');
    const second = await addCustomer('Second');
    await projected();
    failing.failOn.add(first.id);
    let now = new Date();
    const run = await runReactions([failing.reaction, healthy.reaction], { pool, store, now: () => now });
    expect(run.failing).toEqual([failing.reaction.name]);
    expect(healthy.seen.map((s) => s.id)).toEqual([first.id, second.id]);
    expect(failing.seen).toEqual([]);
    const Failure = z.object({ failed_event_id: z.string().nullable(), attempts: z.number(), last_error: z.string().nullable() });
    const failure = () =>
      pool.one(sql.type(Failure)`SELECT failed_event_id, attempts, last_error FROM reaction_checkpoints WHERE name = ${failing.reaction.name}`);
    expect(await failure()).toEqual({ failed_event_id: first.id, attempts: 1, last_error: expect.stringContaining('cannot act on') });
    // The health answer names it (not the error's text, which may quote data).
    expect(await failingReactions(pool)).toEqual([expect.objectContaining({ reaction: failing.reaction.name, eventType: 'customer_added', attempts: 1 })]);
    // Before its next attempt is due, it waits.
    failing.failOn.delete(first.id);
    expect((await runReactions([failing.reaction], { pool, store, now: () => now })).failing).toEqual([failing.reaction.name]);
    expect(failing.seen).toEqual([]);
    now = new Date(Date.now() + 60_000);
    expect((await runReactions([failing.reaction], { pool, store, now: () => now })).reacted).toBe(2);
    expect(failing.seen.map((s) => s.id)).toEqual([first.id, second.id]);
    expect(await failure()).toEqual({ failed_event_id: null, attempts: 0, last_error: null });
    expect(await failingReactions(pool)).toEqual([]);
  });

  it('reads the log once for every reaction, and keeps its books in a fixed few statements whatever their number', async () => {
    const three = [recorder(`r-${randomUUID()}`), recorder(`r-${randomUUID()}`, ['invoice_sent']), recorder(`r-${randomUUID()}`, ['lease_started'])];
    await ensureReactionCheckpoints(
      pool,
      store,
      three.map((r) => r.reaction),
    );
    await addCustomer('Once');
    await projected();
    const { result: run, statements } = await statementsOf(() =>
      runReactions(
        three.map((r) => r.reaction),
        { pool, store },
      ),
    );
    expect(run.reacted).toBe(1);
    expect(statements.filter((s) => /FROM event_store\.events/.test(s))).toHaveLength(1);
    // The read model's position, the locks, the checkpoints, the log, the acting one's own read and its checkpoint, the other two's checkpoints in one, the unlocks.
    expect(statements).toHaveLength(8);
  });

  it('acts once per event when two runners run it at the same time', async () => {
    const { reaction, seen } = recorder(`r-${randomUUID()}`);
    await ensureReactionCheckpoints(pool, store, [reaction]);
    const added = [];
    for (let i = 0; i < 5; i++) added.push(await addCustomer(`Twice${i}`));
    await projected();
    const slow: Reaction = {
      ...reaction,
      async react(event, deps) {
        await new Promise((r) => setTimeout(r, 20));
        await reaction.react(event, deps);
      },
    };
    await Promise.all([runReactions([slow], { pool, store }), runReactions([slow], { pool, store })]);
    await runReactions([slow], { pool, store });
    expect(seen.map((s) => s.id)).toEqual(added.map((a) => a.id));
  });

  it('goes through a long backlog a few batches per run, saying there is more', async () => {
    const { reaction, seen } = recorder(`r-${randomUUID()}`);
    await ensureReactionCheckpoints(pool, store, [reaction]);
    const added = [];
    for (let i = 0; i < 5; i++) added.push(await addCustomer(`Backlog${i}`));
    await projected();
    const limits = { pool, store, batchSize: 2, batchesPerRun: 1 };
    expect(await runReactions([reaction], limits)).toEqual({ reacted: 2, failing: [], more: true });
    expect(await runReactions([reaction], limits)).toEqual({ reacted: 2, failing: [], more: true });
    expect(await runReactions([reaction], limits)).toEqual({ reacted: 1, failing: [], more: false });
    expect(seen.map((s) => s.id)).toEqual(added.map((a) => a.id));
  });

  it('acts on nothing again after the read model is rebuilt', async () => {
    const { reaction, seen } = recorder(`r-${randomUUID()}`);
    await ensureReactionCheckpoints(pool, store, [reaction]);
    const added = await addCustomer('Rebuilt');
    await projected();
    await runReactions([reaction], { pool, store });
    expect(seen.map((s) => s.id)).toEqual([added.id]);
    await rebuildReadModel(pool, store, readModelProjections);
    expect((await runReactions([reaction], { pool, store })).reacted).toBe(0);
    expect(seen).toHaveLength(1);
  });

  it('runs in the projector: what one reaction appends is projected and acted on by the next within seconds', async () => {
    const chained = recorder(`r-${randomUUID()}`, ['customer_note_added']);
    const noter: Reaction = {
      name: `r-${randomUUID()}`,
      types: ['customer_added'],
      async react(event, deps) {
        if (event.type !== 'customer_added') return;
        // Idempotent: the note's id is derived from the event (a repeat appends at the same revision and is refused).
        await deps.store
          .append(
            `customer-${event.data.customerId}`,
            [
              {
                id: randomUUID(),
                type: 'customer_note_added',
                data: { customerId: event.data.customerId, noteId: event.id, text: 'Welcome' },
                metadata: metadata(),
              },
            ],
            { expectedRevision: 0n },
          )
          .catch(() => {});
      },
    };
    const config = readConfig({});
    const connection = queueConnection({ redisUrl: TEST_REDIS_URL, databaseUrl: database.url, prefix: `test-${database.name}-reactions` });
    const projector = await startProjector({
      pool,
      store,
      connection,
      payments: config,
      schedule: { ...config, billingSchedule: null },
      reactions: [noter, chained.reaction],
    });
    try {
      const started = Date.now();
      const added = await addCustomer('Chained');
      await expect.poll(() => chained.seen.length, { timeout: 10_000, interval: 50 }).toBe(1);
      expect(Date.now() - started).toBeLessThan(10_000);
      const note = await pool.maybeOne(
        sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM customer_notes WHERE customer_id = ${added.customerId}`,
      );
      expect(note?.n).toBe(1);
    } finally {
      await projector.stop();
    }
  });
});
