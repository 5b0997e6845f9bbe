import type { EventData, EventType } from '@storage/contracts/events';
import type { EventMetadata, Position } from '@storage/eventstore/port';
import type { ReadModelSession } from './read-model-session.ts';
import type { ReadTableName, TableName } from './read-model-tables.ts';

/** A domain event (of the types T) as projections see it: current shape, with where and when it was recorded. */
export type ProjectedEvent<T extends EventType = EventType> = { [K in T]: { type: K; data: EventData<K> } }[T] & {
  id: string;
  streamName: string;
  /** 0-based place of the event in its stream. */
  revision: bigint;
  metadata: EventMetadata;
  position: Position;
  recordedAt: string;
};

/** A place in the log as one decimal number, (hi << 64) + lo: ordered as the log is, on any store. */
export function logOrderOf(position: Position): string {
  return ((position.hi << 64n) + position.lo).toString();
}

export interface Projection {
  /** Also the checkpoint's name. */
  name: string;
  /** The read tables it owns, in the order they can be created (rebuild copies them); it writes no others. */
  tables: ReadTableName[];
  /**
   * Other projections' tables it reads: for each event, as the projections before it in the order
   * have left them. A projection that reads none can be rebuilt alone; the session refuses a
   * projection any table it neither owns nor declares here, and writes to tables it does not own.
   */
  reads?: TableName[];
  /**
   * The event types it applies; an event of another type is not given to it. Omitted: every
   * event. Declared through defineProjection, whose types refuse a case of any other type.
   */
  canHandle?: readonly EventType[];
  /**
   * Rows it reads for an event of this type whatever the event names (a fixed key, such as the
   * business settings): loaded with the rows the batch's events name, in the same statement.
   */
  readsRows?(type: EventType): ReadonlyArray<readonly [TableName, string]>;
  /**
   * Applies one event to the rows of the batch's session, in memory; the session writes the
   * changed rows back when the batch ends. Rows of other projections read here are as of this
   * event: the projections before this one in the order have already applied it.
   */
  apply(rows: ReadModelSession, event: ProjectedEvent): Promise<void>;
}

/**
 * A projection that applies only the event types it names: inside `apply` the event is of those
 * types, so a `case` (or comparison) on a type left out of canHandle does not compile, and the
 * runner never calls it for the events of the other types (most of a history: lock heartbeats).
 */
export function defineProjection<const T extends EventType>(
  projection: Omit<Projection, 'canHandle' | 'apply'> & {
    canHandle: readonly T[];
    apply(rows: ReadModelSession, event: ProjectedEvent<T>): Promise<void>;
  },
): Projection {
  return projection as Projection;
}
