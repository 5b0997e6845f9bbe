// The behaviour every adapter of the event store port must have, as one vitest suite per adapter.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
  type EventStore,
  type NewEvent,
  type Position,
  type ReadAllBackwardsOptions,
  type ReadAllOptions,
  type RecordedEvent,
  readStreams,
  WrongExpectedRevisionError,
} from './port.ts';

/** A transaction left open, holding a transaction id from its start. */
export interface HeldTransaction {
  /** Appends within the transaction (expected revision: no stream). */
  append(stream: string, events: NewEvent[]): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export interface ConformanceSubject {
  store: EventStore;
  cleanup(): Promise<void>;
  /**
   * Postgres only: a transaction in the store's database that takes its transaction id at once and
   * stays open until commit(), so a test can commit appends in the opposite order to the one they
   * got their positions in.
   */
  holdTransaction?: () => Promise<HeldTransaction>;
  /** Postgres only: a transaction holding a transaction id in another database of the same server, open until end(). */
  holdTransactionInAnotherDatabase?: () => Promise<{ end(): Promise<void> }>;
}

function newEvent(occurredAt = new Date().toISOString()): NewEvent {
  return {
    id: randomUUID(),
    type: 'conformance_checked',
    data: { note: 'präzise €1.10', amountCents: 110, nested: { list: [1, 'two', null] } },
    metadata: {
      actor: { type: 'staff', id: randomUUID() },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
      occurredAt,
    },
  };
}

function newEvents(count: number): NewEvent[] {
  return Array.from({ length: count }, () => newEvent());
}

function newStreamName(purpose: string): string {
  return `conformance_${purpose}-${randomUUID()}`;
}

/** The part of a recorded event the writer chose. */
function asWritten(event: RecordedEvent): NewEvent {
  return { id: event.id, type: event.type, data: event.data, metadata: event.metadata };
}

function ids(events: { id: string }[]): string[] {
  return events.map((e) => e.id);
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected the promise to reject'),
    (error: unknown) => error,
  );
}

/**
 * Postgres shows an event to readAll only once every older transaction of its database has ended
 * (autovacuum's, for one): poll until the wanted events are visible (or give up).
 */
async function readAllUntilVisible(store: EventStore, options: ReadAllOptions, wanted: string[]): Promise<RecordedEvent[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const events = await store.readAll(options);
    const seen = new Set(ids(events));
    if (wanted.every((id) => seen.has(id)) || Date.now() > deadline) return events;
    await sleep(25);
  }
}

/** readAllUntilVisible for the newest-first read. */
async function readAllBackwardsUntilVisible(store: EventStore, options: ReadAllBackwardsOptions, wanted: string[]): Promise<RecordedEvent[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const events = await store.readAllBackwards(options);
    const seen = new Set(ids(events));
    if (wanted.every((id) => seen.has(id)) || Date.now() > deadline) return events;
    await sleep(25);
  }
}

function expectStrictlyDecreasing(positions: Position[]): void {
  for (let i = 1; i < positions.length; i++) {
    expect(comparePositions(positions[i - 1]!, positions[i]!), `position ${i} before position ${i - 1}`).toBe(1);
  }
}

function expectStrictlyIncreasing(positions: Position[]): void {
  for (let i = 1; i < positions.length; i++) {
    expect(comparePositions(positions[i - 1]!, positions[i]!), `position ${i} after position ${i - 1}`).toBe(-1);
  }
}

export function describeEventStoreConformance(name: string, makeStore: () => Promise<ConformanceSubject>): void {
  describe(`event store conformance: ${name}`, () => {
    let subject: ConformanceSubject;
    let store: EventStore;

    beforeAll(async () => {
      subject = await makeStore();
      store = subject.store;
    });

    afterAll(async () => {
      await subject?.cleanup();
    });

    describe('append', () => {
      it("'no_stream' creates the stream; revisions count from 0 and the events read back as written", async () => {
        const stream = newStreamName('create');
        const events = newEvents(2);

        const result = await store.append(stream, events, { expectedRevision: 'no_stream' });

        expect(result.nextRevision).toBe(1n);
        const recorded = await store.readStream(stream);
        expect(recorded.map(asWritten)).toEqual(events);
        expect(recorded.map((e) => e.revision)).toEqual([0n, 1n]);
        expect(recorded.map((e) => e.streamName)).toEqual([stream, stream]);
        expectStrictlyIncreasing(recorded.map((e) => e.position));
        expect(recorded[1]!.position).toEqual(result.position);
        for (const e of recorded) expect(new Date(e.recordedAt).toISOString()).toBe(e.recordedAt);
      });

      it('an exact expected revision appends after that revision', async () => {
        const stream = newStreamName('exact');
        const first = newEvents(1);
        const next = newEvents(2);
        await store.append(stream, first, { expectedRevision: 'no_stream' });

        const result = await store.append(stream, next, { expectedRevision: 0n });

        expect(result.nextRevision).toBe(2n);
        expect(ids(await store.readStream(stream))).toEqual(ids([...first, ...next]));
      });

      it("'any' appends whether or not the stream exists", async () => {
        const stream = newStreamName('any');

        expect((await store.append(stream, newEvents(1), { expectedRevision: 'any' })).nextRevision).toBe(0n);
        expect((await store.append(stream, newEvents(1), { expectedRevision: 'any' })).nextRevision).toBe(1n);
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it("'stream_exists' appends to an existing stream and refuses a missing one", async () => {
        const stream = newStreamName('exists');

        const error = await rejectionOf(store.append(stream, newEvents(1), { expectedRevision: 'stream_exists' }));
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ stream, expected: 'stream_exists', actual: 'no_stream' });
        expect(await store.readStream(stream)).toEqual([]);

        await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });
        expect((await store.append(stream, newEvents(1), { expectedRevision: 'stream_exists' })).nextRevision).toBe(1n);
      });

      it('a wrong expected revision throws WrongExpectedRevisionError and writes nothing', async () => {
        const stream = newStreamName('conflict');
        const events = newEvents(2);
        await store.append(stream, events, { expectedRevision: 'no_stream' });
        const rejected = newEvents(1);

        const stale = await rejectionOf(store.append(stream, rejected, { expectedRevision: 0n }));
        expect(stale).toBeInstanceOf(WrongExpectedRevisionError);
        expect(stale).toMatchObject({ stream, expected: 0n, actual: 1n });

        const recreate = await rejectionOf(store.append(stream, rejected, { expectedRevision: 'no_stream' }));
        expect(recreate).toBeInstanceOf(WrongExpectedRevisionError);
        expect(recreate).toMatchObject({ stream, expected: 'no_stream', actual: 1n });

        expect(ids(await store.readStream(stream))).toEqual(ids(events));
        // Had any part of a refused append been stored, its event id would now be taken.
        await store.append(stream, rejected, { expectedRevision: 1n });
        expect(ids(await store.readStream(stream))).toEqual(ids([...events, ...rejected]));
      });

      it('an exact expected revision on a missing stream throws WrongExpectedRevisionError', async () => {
        const stream = newStreamName('missing');

        const error = await rejectionOf(store.append(stream, newEvents(1), { expectedRevision: 0n }));

        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ stream, expected: 0n, actual: 'no_stream' });
        expect(await store.readStream(stream)).toEqual([]);
      });

      it('an append without events is refused', async () => {
        await expect(store.append(newStreamName('empty'), [], { expectedRevision: 'any' })).rejects.toThrow(/at least one event/);
      });

      it("20 concurrent 'no_stream' appends to one stream: exactly one wins", async () => {
        const stream = newStreamName('race-create');
        const attempts = Array.from({ length: 20 }, () => newEvents(1));

        const outcomes = await Promise.allSettled(attempts.map((events) => store.append(stream, events, { expectedRevision: 'no_stream' })));

        const winners = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [attempts[i]!] : []));
        const losers = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
        expect(winners).toHaveLength(1);
        for (const loser of losers) expect(loser).toBeInstanceOf(WrongExpectedRevisionError);
        expect(ids(await store.readStream(stream))).toEqual(ids(winners[0]!));
      });

      it("20 concurrent 'any' appends to a new stream all succeed, one after another", async () => {
        const stream = newStreamName('race-any');
        const attempts = Array.from({ length: 20 }, () => newEvents(1));

        const results = await Promise.all(attempts.map((events) => store.append(stream, events, { expectedRevision: 'any' })));

        expect(results.map((r) => r.nextRevision).sort((a, b) => (a < b ? -1 : 1))).toEqual(attempts.map((_, i) => BigInt(i)));
        const recorded = await store.readStream(stream);
        expect(recorded.map((e) => e.revision)).toEqual(attempts.map((_, i) => BigInt(i)));
        expect(new Set(ids(recorded))).toEqual(new Set(ids(attempts.flat())));
      });

      it('20 concurrent appends at the same expected revision: exactly one wins', async () => {
        const stream = newStreamName('race-revision');
        await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });
        const attempts = Array.from({ length: 20 }, () => newEvents(1));

        const outcomes = await Promise.allSettled(attempts.map((events) => store.append(stream, events, { expectedRevision: 0n })));

        const winners = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [attempts[i]!] : []));
        const losers = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
        expect(winners).toHaveLength(1);
        for (const loser of losers) expect(loser).toBeInstanceOf(WrongExpectedRevisionError);
        const recorded = await store.readStream(stream);
        expect(recorded).toHaveLength(2);
        expect(recorded[1]!.id).toBe(winners[0]![0]!.id);
      });
    });

    describe('readStream', () => {
      it('returns the events in revision order, from fromRevision on', async () => {
        const stream = newStreamName('order');
        const first = newEvents(2);
        const second = newEvents(2);
        await store.append(stream, first, { expectedRevision: 'no_stream' });
        await store.append(stream, second, { expectedRevision: 1n });

        const fromOne = await store.readStream(stream, { fromRevision: 1n });

        expect(fromOne.map((e) => e.revision)).toEqual([1n, 2n, 3n]);
        expect(ids(fromOne)).toEqual(ids([...first, ...second]).slice(1));
        expect(await store.readStream(stream, { fromRevision: 4n })).toEqual([]);
      });

      it('until keeps the events that occurred at or before the instant, wherever they are in the stream', async () => {
        const stream = newStreamName('until');
        const events = [
          newEvent('2024-01-01T00:00:00.000Z'),
          newEvent('2024-03-01T00:00:00.000Z'),
          newEvent('2023-12-01T00:00:00.000Z'), // backdated after a later one
          newEvent('2024-02-01T00:00:00.000Z'), // exactly at the instant
          newEvent('2024-02-01T01:00:00+02:00'), // before it, though its text sorts after
        ];
        await store.append(stream, events, { expectedRevision: 'no_stream' });

        const until = await store.readStream(stream, { until: new Date('2024-02-01T00:00:00.000Z') });

        expect(until.map((e) => e.revision)).toEqual([0n, 2n, 3n, 4n]);
        const fromOneUntil = await store.readStream(stream, { fromRevision: 1n, until: new Date('2024-02-01T00:00:00.000Z') });
        expect(fromOneUntil.map((e) => e.revision)).toEqual([2n, 3n, 4n]);
      });

      it('a stream that does not exist reads as empty', async () => {
        expect(await store.readStream(newStreamName('never-written'))).toEqual([]);
      });
    });

    describe('readStreams', () => {
      it('reads several streams at once, each as readStream reads it, a missing one as empty', async () => {
        const [a, b, missing] = [newStreamName('many-a'), newStreamName('many-b'), newStreamName('many-missing')];
        await store.append(a, newEvents(2), { expectedRevision: 'no_stream' });
        await store.append(b, newEvents(1), { expectedRevision: 'no_stream' });
        await store.append(a, newEvents(1), { expectedRevision: 1n });

        const read = await readStreams(store, [b, missing, a]);

        expect([...read.keys()].sort()).toEqual([a, b, missing].sort());
        expect(read.get(a)).toEqual(await store.readStream(a));
        expect(read.get(a)!.map((e) => e.revision)).toEqual([0n, 1n, 2n]);
        expect(read.get(b)).toEqual(await store.readStream(b));
        expect(read.get(missing)).toEqual([]);
      });
    });

    describe('readAll', () => {
      it('returns the events committed after a checkpoint, in order, each once', async () => {
        const checkpoint = await store.headPosition();
        const streamA = newStreamName('all-a');
        const streamB = newStreamName('all-b');
        const [a1, a2, b1, a3] = newEvents(4) as [NewEvent, NewEvent, NewEvent, NewEvent];
        await store.append(streamA, [a1, a2], { expectedRevision: 'no_stream' });
        await store.append(streamB, [b1], { expectedRevision: 'no_stream' });
        const last = await store.append(streamA, [a3], { expectedRevision: 1n });
        const ours = new Set([streamA, streamB]);

        const read = await readAllUntilVisible(store, { after: checkpoint, limit: 1000 }, ids([a1, a2, b1, a3]));

        const mine = read.filter((e) => ours.has(e.streamName));
        expect(mine.map(asWritten)).toEqual([a1, a2, b1, a3]);
        expect(mine.at(-1)!.position).toEqual(last.position);
        expectStrictlyIncreasing(read.map((e) => e.position));
        if (checkpoint) for (const e of read) expect(comparePositions(e.position, checkpoint)).toBe(1);
      });

      it('reads from the beginning when there is no checkpoint', async () => {
        const checkpoint = await store.headPosition();
        const [event] = newEvents(1) as [NewEvent];
        await store.append(newStreamName('all-start'), [event], { expectedRevision: 'no_stream' });
        const visible = await readAllUntilVisible(store, { after: checkpoint, limit: 1000 }, [event.id]);
        const mine = visible.find((e) => e.id === event.id);

        const [oldest] = await store.readAll({ limit: 1 });

        expect(mine).toBeDefined();
        expect(oldest).toBeDefined();
        expect(comparePositions(oldest!.position, mine!.position)).toBeLessThanOrEqual(0);
        expect(await store.readAll({ after: null, limit: 1 })).toEqual([oldest]);
      });

      it('with a limit, resuming after the last position returned misses and repeats nothing', async () => {
        const checkpoint = await store.headPosition();
        const streamA = newStreamName('page-a');
        const streamB = newStreamName('page-b');
        const written = newEvents(5);
        await store.append(streamA, written.slice(0, 2), { expectedRevision: 'no_stream' });
        await store.append(streamB, written.slice(2, 3), { expectedRevision: 'no_stream' });
        await store.append(streamA, written.slice(3), { expectedRevision: 1n });
        const whole = await readAllUntilVisible(store, { after: checkpoint, limit: 1000 }, ids(written));

        // An empty page ends the walk once every event written has been read: before that, the
        // next page may be held back a moment by a transaction still open (as `whole` was), and
        // the walk asks again from the same position.
        const pages: RecordedEvent[][] = [];
        let after = checkpoint;
        const unread = new Set(ids(written));
        for (const deadline = Date.now() + 10_000; ; ) {
          const page = await store.readAll({ after, limit: 2 });
          if (page.length === 0) {
            if (unread.size === 0 || Date.now() > deadline) break;
            await sleep(25);
            continue;
          }
          pages.push(page);
          for (const event of page) unread.delete(event.id);
          after = page.at(-1)!.position;
        }

        expect(pages[0]).toHaveLength(2);
        for (const page of pages) expect(page.length).toBeLessThanOrEqual(2);
        const paged = pages.flat();
        expect(ids(paged).slice(0, whole.length)).toEqual(ids(whole));
        expect(new Set(ids(paged)).size).toBe(paged.length);
        const ours = new Set([streamA, streamB]);
        expect(ids(paged.filter((e) => ours.has(e.streamName)))).toEqual(ids(written));
      });

      it('headPosition is the position of the newest event readAll returns', async () => {
        const checkpoint = await store.headPosition();
        const events = newEvents(2);
        const result = await store.append(newStreamName('head'), events, { expectedRevision: 'no_stream' });
        const visible = await readAllUntilVisible(store, { after: checkpoint, limit: 1000 }, ids(events));

        const head = await store.headPosition();

        expect(head).toEqual(result.position);
        expect(head).toEqual(visible.at(-1)!.position);
        expect(await store.readAll({ after: head, limit: 10 })).toEqual([]);
      });

      it('never passes an event while an older append is still uncommitted', async (context) => {
        const { holdTransaction } = subject;
        if (!holdTransaction) return context.skip('this adapter has no transactions a test can hold open');
        const checkpoint = await store.headPosition();
        const [early] = newEvents(1) as [NewEvent];
        const [late] = newEvents(1) as [NewEvent];
        const earlyStream = newStreamName('held');
        const lateStream = newStreamName('not-held');

        const held = await holdTransaction();
        await held.append(earlyStream, [early]);
        let committed = false;
        try {
          const lateResult = await store.append(lateStream, [late], { expectedRevision: 'no_stream' });

          // The late event is committed, but an earlier transaction is still open: passing the
          // late one now would leave a reader's checkpoint beyond the early one.
          const whileHeld = await store.readAll({ after: checkpoint, limit: 1000 });
          expect(ids(whileHeld)).not.toContain(late.id);
          expect(ids(whileHeld)).not.toContain(early.id);
          const head = await store.headPosition();
          expect(head === null || comparePositions(head, lateResult.position) < 0).toBe(true);
          const readerCheckpoint = whileHeld.at(-1)?.position ?? checkpoint;

          await held.commit();
          committed = true;

          const fromOld = await readAllUntilVisible(store, { after: checkpoint, limit: 1000 }, [early.id, late.id]);
          expect(ids(fromOld).filter((id) => id === early.id || id === late.id)).toEqual([early.id, late.id]);
          const fromReader = await store.readAll({ after: readerCheckpoint, limit: 1000 });
          expect(ids(fromReader).filter((id) => id === early.id || id === late.id)).toEqual([early.id, late.id]);
        } finally {
          if (!committed) await held.rollback();
        }
      });
      it('a transaction of this database that took its id before an append holds it back until it ends, then both are read in order', async (context) => {
        const { holdTransaction } = subject;
        if (!holdTransaction) return context.skip('this adapter has no transactions a test can hold open');
        const checkpoint = await store.headPosition();
        const [early] = newEvents(1) as [NewEvent];
        const [late] = newEvents(1) as [NewEvent];

        // It holds a transaction id but has appended nothing yet (it may be writing elsewhere first).
        const held = await holdTransaction();
        let ended = false;
        try {
          await store.append(newStreamName('after-held-id'), [late], { expectedRevision: 'no_stream' });
          await sleep(100);

          const whileHeld = await store.readAll({ after: checkpoint, limit: 1000 });
          expect(ids(whileHeld)).not.toContain(late.id);
          const readerCheckpoint = whileHeld.at(-1)?.position ?? checkpoint;

          await held.append(newStreamName('held-id'), [early]);
          await held.commit();
          ended = true;

          await readAllUntilVisible(store, { after: checkpoint, limit: 1000 }, [early.id, late.id]);
          const fromReader = await store.readAll({ after: readerCheckpoint, limit: 1000 });
          expect(ids(fromReader).filter((id) => id === early.id || id === late.id)).toEqual([early.id, late.id]);
        } finally {
          if (!ended) await held.rollback();
        }
      });

      it('a transaction held open in another database of the server delays no read: a new event is read within 100 ms', async (context) => {
        const { holdTransactionInAnotherDatabase } = subject;
        if (!holdTransactionInAnotherDatabase) return context.skip('this adapter shares no server with other databases');
        const checkpoint = await store.headPosition();
        const elsewhere = await holdTransactionInAnotherDatabase();
        try {
          const [event] = newEvents(1) as [NewEvent];
          const result = await store.append(newStreamName('beside-other-database'), [event], { expectedRevision: 'no_stream' });
          const appended = performance.now();

          const read = await readAllUntilVisible(store, { after: checkpoint, limit: 1000 }, [event.id]);
          const waited = performance.now() - appended;

          expect(ids(read)).toContain(event.id);
          expect(waited).toBeLessThan(100);
          const head = await store.headPosition();
          expect(head && comparePositions(head, result.position)).toBeGreaterThanOrEqual(0);
          expect(ids(await store.readAllBackwards({ limit: 1000 }))).toContain(event.id);
        } finally {
          await elsewhere.end();
        }
      });
    });

    // On EventStoreDB these run only where EVENTSTORE_URL points at a server (none on this
    // project's machines), so there the adapter's readAllBackwards is only type-checked.
    describe('readAllBackwards', () => {
      const newerThan = (checkpoint: Position | null) => (e: RecordedEvent) => !checkpoint || comparePositions(e.position, checkpoint) > 0;

      it('returns the events of readAll in the opposite order, newest first', async () => {
        const checkpoint = await store.headPosition();
        const streamA = newStreamName('back-a');
        const streamB = newStreamName('back-b');
        const [a1, a2, b1, a3] = newEvents(4) as [NewEvent, NewEvent, NewEvent, NewEvent];
        await store.append(streamA, [a1, a2], { expectedRevision: 'no_stream' });
        await store.append(streamB, [b1], { expectedRevision: 'no_stream' });
        await store.append(streamA, [a3], { expectedRevision: 1n });
        const ours = new Set([streamA, streamB]);

        const backwards = await readAllBackwardsUntilVisible(store, { limit: 1000 }, ids([a1, a2, b1, a3]));
        const forwards = await store.readAll({ after: checkpoint, limit: 1000 });

        expect(backwards.filter((e) => ours.has(e.streamName)).map(asWritten)).toEqual([a3, b1, a2, a1]);
        expectStrictlyDecreasing(backwards.map((e) => e.position));
        // Whatever else was appended meanwhile, up to the newest event readAll passed the two reads agree.
        const newestForwards = forwards.at(-1)!.position;
        const sameRange = backwards.filter(newerThan(checkpoint)).filter((e) => comparePositions(e.position, newestForwards) <= 0);
        expect(sameRange).toEqual([...forwards].reverse());
      });

      it('with a limit and `before`, paging on misses and repeats nothing; `before` itself is left out', async () => {
        const checkpoint = await store.headPosition();
        const streamA = newStreamName('back-page-a');
        const streamB = newStreamName('back-page-b');
        const written = newEvents(5);
        await store.append(streamA, written.slice(0, 2), { expectedRevision: 'no_stream' });
        await store.append(streamB, written.slice(2, 3), { expectedRevision: 'no_stream' });
        await store.append(streamA, written.slice(3), { expectedRevision: 1n });
        const whole = (await readAllBackwardsUntilVisible(store, { limit: 1000 }, ids(written))).filter(newerThan(checkpoint));
        expect(whole.length).toBeGreaterThanOrEqual(5);

        const pages: RecordedEvent[][] = [];
        let before: Position | null = whole[0]!.position;
        const first = await store.readAllBackwards({ before, limit: 2 });
        expect(first).toEqual(whole.slice(1, 3));
        for (let page = first; page.length > 0; page = await store.readAllBackwards({ before, limit: 2 })) {
          pages.push(page);
          before = page.at(-1)!.position;
          if (checkpoint && comparePositions(before, checkpoint) <= 0) break;
        }

        for (const page of pages) expect(page.length).toBeLessThanOrEqual(2);
        expect(pages.slice(0, -1).every((page) => page.length === 2)).toBe(true);
        const paged = pages.flat().filter(newerThan(checkpoint));
        expect(ids(paged)).toEqual(ids(whole.slice(1)));
        const ours = new Set([streamA, streamB]);
        expect(ids([whole[0]!, ...paged].filter((e) => ours.has(e.streamName)))).toEqual(ids(written).reverse());
      });

      it('nothing is before the oldest event; limit 1 from the top is the head position', async () => {
        const [event] = newEvents(1) as [NewEvent];
        await store.append(newStreamName('back-ends'), [event], { expectedRevision: 'no_stream' });
        await readAllBackwardsUntilVisible(store, { limit: 1000 }, [event.id]);
        const [oldest] = await store.readAll({ limit: 1 });

        expect(await store.readAllBackwards({ before: oldest!.position, limit: 10 })).toEqual([]);
        expect(await store.readAllBackwards({ limit: 0 })).toEqual([]);
        const head = await store.headPosition();
        const [newest] = await store.readAllBackwards({ limit: 1 });
        const headAfter = await store.headPosition();
        // Another writer may append between the reads: the newest event lies between the two heads.
        expect(comparePositions(newest!.position, head!)).toBeGreaterThanOrEqual(0);
        expect(comparePositions(newest!.position, headAfter!)).toBeLessThanOrEqual(0);
        // The readable head never passes the newest committed event.
        const committed = await store.newestPosition();
        expect(comparePositions(committed!, headAfter!)).toBeGreaterThanOrEqual(0);
      });

      it('shows no event while an older append is still uncommitted', async (context) => {
        const { holdTransaction } = subject;
        if (!holdTransaction) return context.skip('this adapter has no transactions a test can hold open');
        const [early] = newEvents(1) as [NewEvent];
        const [late] = newEvents(1) as [NewEvent];

        const held = await holdTransaction();
        await held.append(newStreamName('back-held'), [early]);
        let committed = false;
        try {
          const lateResult = await store.append(newStreamName('back-not-held'), [late], { expectedRevision: 'no_stream' });

          const whileHeld = await store.readAllBackwards({ limit: 1000 });
          expect(ids(whileHeld)).not.toContain(late.id);
          expect(ids(whileHeld)).not.toContain(early.id);
          for (const e of whileHeld) expect(comparePositions(e.position, lateResult.position)).toBe(-1);
          expect(whileHeld[0]?.position ?? null).toEqual(await store.headPosition());
          // The newest committed event is the later one, though no reader may pass the held append yet.
          expect(await store.newestPosition()).toEqual(lateResult.position);

          await held.commit();
          committed = true;

          const afterCommit = await readAllBackwardsUntilVisible(store, { limit: 1000 }, [early.id, late.id]);
          expect(ids(afterCommit).filter((id) => id === early.id || id === late.id)).toEqual([late.id, early.id]);
          expect(afterCommit[0]!.position).toEqual(await store.headPosition());
        } finally {
          if (!committed) await held.rollback();
        }
      });
    });
  });
}
