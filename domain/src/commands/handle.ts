import { randomUUID } from 'node:crypto';
import { currentSchemaVersion, type DomainEvent, isEventType, upcast } from '@storage/contracts/events';
import { type Actor, type EventStore, type NewEvent, type Position, type RecordedEvent, WrongExpectedRevisionError } from '@storage/eventstore/port';
import { ConflictError } from './errors.ts';

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

export async function loadAggregate<S>(store: EventStore, stream: string, aggregate: Aggregate<S>) {
  const recorded = await store.readStream(stream);
  let state = aggregate.initial;
  for (const e of recorded) state = aggregate.evolve(state, toDomainEvent(e));
  const last = recorded.at(-1);
  return { state, revision: last ? last.revision : null, lastEventId: last ? last.id : null };
}

/**
 * Loads a stream, decides, and appends with the expected revision; a lost race is retried on
 * fresh state a bounded number of times, then reported as a conflict.
 */
export async function handleCommand<S>(
  ctx: CommandContext,
  stream: string,
  aggregate: Aggregate<S>,
  decide: (state: S, exists: boolean) => DomainEvent[],
): Promise<CommandResult<S>> {
  for (let attempt = 1; ; attempt++) {
    const { state, revision, lastEventId } = await loadAggregate(ctx.store, stream, aggregate);
    const events = decide(state, revision !== null);
    if (events.length === 0) return { state, events, position: null };
    const causationId = ctx.causedByStreamHead ? lastEventId : null;
    try {
      const result = await ctx.store.append(
        stream,
        events.map((e) => envelope(ctx, e, causationId)),
        { expectedRevision: revision ?? 'no_stream' },
      );
      return { state: events.reduce(aggregate.evolve, state), events, position: result.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Someone else changed this at the same time. Please try again.');
    }
  }
}
