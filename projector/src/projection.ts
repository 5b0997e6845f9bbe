import type { DomainEvent } from '@storage/contracts/events';
import type { EventMetadata, Position } from '@storage/eventstore/port';
import type { DatabaseTransactionConnection } from 'slonik';

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
  /** The read tables it owns, in the order they can be created (rebuild copies them). */
  tables: string[];
  apply(tx: DatabaseTransactionConnection, event: ProjectedEvent): Promise<void>;
}
