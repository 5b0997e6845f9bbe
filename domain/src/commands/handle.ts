import { randomUUID } from 'node:crypto';
import { currentSchemaVersion, type DomainEvent, isEventType, upcast } from '@storage/contracts/events';
import { type Actor, type EventStore, type NewEvent, type Position, type RecordedEvent, WrongExpectedRevisionError } from '@storage/eventstore/port';
import { ConcurrencyExhaustedError } from './errors.ts';

export interface CommandContext {
  store: EventStore;
  actor: Actor;
  correlationId: string;
  /** "Now" for the domain: commands never read the clock themselves. */
  now: Date;
  /**
   * Set by the processes that append on their own (overdue invoices, reservation expiry, workflow
   * recovery, payment reconciliation): each event they append names as its causation id the event
   * the decision was made on, the last one of the stream decided on. A request's events have no
   * causing event (their correlation id is the request's id).
   */
  causedByStreamHead?: boolean;
  /**
   * Test-only fault injection: a workflow across aggregates calls it after each of its steps is
   * written, so a test can stop the workflow there as a crash would (a promise that never
   * settles). Requests never set it.
   */
  afterStep?: (step: WorkflowStep) => Promise<void> | void;
}

/** The steps of the workflows across aggregates, named for what has just been written. */
export type WorkflowStep =
  | 'reservation:unit-held'
  | 'reservation:customer-resolved'
  | 'reservation:ended'
  | 'conversion:customer-added'
  | 'conversion:started'
  | 'lease:unit-occupied'
  | 'lease:started';

export async function stepWritten(ctx: CommandContext, step: WorkflowStep): Promise<void> {
  await ctx.afterStep?.(step);
}

export interface Aggregate<S> {
  initial: S;
  evolve(state: S, event: DomainEvent): S;
}

export interface CommandResult<S> {
  state: S;
  events: DomainEvent[];
  /** Position of the last event appended; null when the command appended nothing. */
  position: Position | null;
  /** The stream's revision after the command (null: the stream still does not exist). */
  revision: bigint | null;
  /** The id of the stream's last event after the command. */
  lastEventId: string | null;
}

/** A stream's state as loaded (loadAggregate), with the revision it was decided at. */
export interface LoadedAggregate<S> {
  state: S;
  revision: bigint | null;
  lastEventId: string | null;
}

const MAX_ATTEMPTS = 5;

export function toDomainEvent(e: RecordedEvent): DomainEvent {
  if (!isEventType(e.type)) throw new Error(`Unknown event type ${e.type} in ${e.streamName}`);
  return upcast(e.type, e.metadata.schemaVersion, e.data);
}

export function envelope(ctx: CommandContext, event: DomainEvent, causationId: string | null = null): NewEvent {
  return {
    id: randomUUID(),
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: {
      actor: ctx.actor,
      correlationId: ctx.correlationId,
      causationId,
      schemaVersion: currentSchemaVersion[event.type],
      occurredAt: ctx.now.toISOString(),
    },
  };
}

/**
 * A stream the caller has just named with a new id, as it is before its first event: decided on
 * without reading it, since the append's expected revision ("no stream") checks it anyway (a
 * stream that does exist refuses the append, and the command is decided again on what it holds).
 */
export function newStream<S>(aggregate: Aggregate<S>): LoadedAggregate<S> {
  return { state: aggregate.initial, revision: null, lastEventId: null };
}

export async function loadAggregate<S>(store: EventStore, stream: string, aggregate: Aggregate<S>): Promise<LoadedAggregate<S>> {
  return aggregateFrom(await store.readStream(stream), aggregate);
}

/** A stream's state from its events as read (readStream, or several streams at once with readStreams). */
export function aggregateFrom<S>(recorded: readonly RecordedEvent[], aggregate: Aggregate<S>): LoadedAggregate<S> {
  let state = aggregate.initial;
  for (const e of recorded) state = aggregate.evolve(state, toDomainEvent(e));
  const last = recorded.at(-1);
  return { state, revision: last ? last.revision : null, lastEventId: last ? last.id : null };
}

/**
 * Loads a stream, decides, and appends with the expected revision; a lost race is retried on
 * fresh state a bounded number of times, then reported as a conflict. `known`: the stream as the
 * caller loaded it a moment ago (the billing run, which keeps each lease's state between its
 * steps), decided on first instead of reading the stream again; a lost race reads it afresh.
 */
export async function handleCommand<S>(
  ctx: CommandContext,
  stream: string,
  aggregate: Aggregate<S>,
  decide: (state: S, exists: boolean) => DomainEvent[],
  known?: LoadedAggregate<S>,
): Promise<CommandResult<S>> {
  for (let attempt = 1; ; attempt++) {
    const { state, revision, lastEventId } = attempt === 1 && known ? known : await loadAggregate(ctx.store, stream, aggregate);
    const events = decide(state, revision !== null);
    if (events.length === 0) return { state, events, position: null, revision, lastEventId };
    const causationId = ctx.causedByStreamHead ? lastEventId : null;
    const envelopes = events.map((e) => envelope(ctx, e, causationId));
    try {
      const result = await ctx.store.append(stream, envelopes, { expectedRevision: revision ?? 'no_stream' });
      return {
        state: events.reduce(aggregate.evolve, state),
        events,
        position: result.position,
        revision: result.nextRevision,
        lastEventId: envelopes.at(-1)!.id,
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ConcurrencyExhaustedError();
    }
  }
}
