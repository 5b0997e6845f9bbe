import type { EventType } from '@storage/contracts/events';
import type { EventStore } from '@storage/eventstore/port';
import type { DatabasePool } from 'slonik';
import type { ProjectedEvent } from '../projection.ts';

// Reactions: the processes that act on what happened, as it happens (ARCHITECTURE.md,
// "Processes"). A reaction follows the event log with a checkpoint of its own (reaction_checkpoints),
// after the read model: when it sees an event, every projection has already applied it, so it may
// read the read tables as of (at least) that event. It is not part of the read model: a rebuild
// neither replays nor resets it, so what it did (a message sent, a lock overlocked) is never done
// again by a rebuild.
//
// At least once: a crash between acting and advancing the checkpoint shows it the event again, so
// `react` must be idempotent: append with ids and stream revisions derived from event.id (or
// decided on the aggregate's state so a repeat decides nothing), insert rows ON CONFLICT DO NOTHING
// under an id derived from event.id.

export interface ReactionDeps {
  store: EventStore;
  pool: DatabasePool;
  /** The time the reaction runs (tests and demos may pass another). */
  now: Date;
  log?: (message: string, error?: unknown) => void;
}

export interface Reaction {
  /** Its checkpoint's name; never change it once shipped (a new name starts at the log's head). */
  name: string;
  /** The event types it is shown; the runner skips the others without a call. */
  types: readonly EventType[];
  /**
   * Acts on one event. A throw stops this reaction at this event (the checkpoint stays before it)
   * and it is tried again with a growing delay; other reactions go on.
   */
  react(event: ProjectedEvent, deps: ReactionDeps): Promise<void>;
}
