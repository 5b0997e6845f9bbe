import type { DomainEvent } from '@storage/contracts/events';
import type { EventMetadata, Position } from '@storage/eventstore/port';
import type { ReadModelSession } from './read-model-session.ts';
import type { ReadTableName, TableName } from './read-model-tables.ts';

/** A domain event as projections see it: current shape, with where and when it was recorded. */
export type ProjectedEvent = DomainEvent & {
  id: string;
  streamName: string;
  metadata: EventMetadata;
  position: Position;
  recordedAt: string;
};

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
   * Applies one event to the rows of the batch's session, in memory; the session writes the
   * changed rows back when the batch ends. Rows of other projections read here are as of this
   * event: the projections before this one in the order have already applied it.
   */
  apply(rows: ReadModelSession, event: ProjectedEvent): Promise<void>;
}
