// The EventStoreDB (KurrentDB) adapter of the event store port, chosen when EVENTSTORE_URL is set.
import {
  ANY,
  type AppendExpectedRevision,
  BACKWARDS,
  END,
  type Position as EsdbPosition,
  type RecordedEvent as EsdbRecordedEvent,
  EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  comparePositions,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type Position,
  type ReadAllBackwardsOptions,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from './port.ts';

function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'any':
      return ANY;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected;
  }
}

function fromEsdbPosition(position: EsdbPosition): Position {
  return { hi: position.commit, lo: position.prepare };
}

/** EventStoreDB's own events ($metadata, $> links, $statsCollected...) are not domain events. */
function isSystemEvent(event: EsdbRecordedEvent): boolean {
  return event.type.startsWith('$');
}

function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  if (!event.isJson) throw new Error(`Event ${event.id} in ${event.streamId} is not JSON`);
  if (!event.position) throw new Error('EventStoreDB returned an event without its position: version 22.6 or later is required');
  return {
    id: event.id,
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: event.metadata as unknown as EventMetadata,
    streamName: event.streamId,
    revision: event.revision,
    position: fromEsdbPosition(event.position),
    recordedAt: event.created.toISOString(),
  };
}

export function createEventStoreDbEventStore(connectionString: string): EventStore {
  const client = EventStoreDBClient.connectionString(connectionString);

  async function positionOfRevision(stream: string, revision: bigint): Promise<Position> {
    for await (const { event } of client.readStream(stream, { fromRevision: revision, maxCount: 1 })) {
      if (event) return toRecordedEvent(event).position;
    }
    throw new Error(`Event ${revision} of ${stream} was appended but cannot be read back`);
  }

  /**
   * Up to `limit` domain events of $all read one way from `from` (exclusive; from the start or the
   * end when null). A plain read of $all takes no server-side filter, so system events are dropped
   * here: pages are read until `limit` domain events are found or the log ends.
   */
  async function readAllDomainEvents(direction: typeof FORWARDS | typeof BACKWARDS, from: Position | null, limit: number): Promise<RecordedEvent[]> {
    const found: RecordedEvent[] = [];
    const pageSize = limit + 1;
    // Reading from a position may include the event at it, whichever way: it is skipped.
    const alreadySeen = (position: Position, seen: Position) =>
      direction === FORWARDS ? comparePositions(position, seen) <= 0 : comparePositions(position, seen) >= 0;
    let lastSeen = from;
    let logEnded = false;
    while (found.length < limit && !logEnded) {
      const page = client.readAll({
        direction,
        fromPosition: lastSeen ? { commit: lastSeen.hi, prepare: lastSeen.lo } : direction === FORWARDS ? START : END,
        maxCount: pageSize,
      });
      let read = 0;
      try {
        for await (const { event } of page) {
          if (!event) continue;
          read += 1;
          const position = fromEsdbPosition(event.position);
          if (lastSeen && alreadySeen(position, lastSeen)) continue;
          lastSeen = position;
          if (isSystemEvent(event)) continue;
          found.push(toRecordedEvent(event));
          if (found.length === limit) break;
        }
      } finally {
        // Leaving a for-await early ends the Node stream but not the gRPC call beneath it.
        await page.cancel();
      }
      logEnded = read < pageSize;
    }
    return found;
  }

  async function headPosition(): Promise<Position | null> {
    const newestFirst = client.readAll({ fromPosition: END, direction: BACKWARDS });
    try {
      for await (const { event } of newestFirst) {
        if (event && !isSystemEvent(event)) return fromEsdbPosition(event.position);
      }
      return null;
    } finally {
      await newestFirst.cancel();
    }
  }

  return {
    kind: 'eventstoredb',

    async append(stream, events, { expectedRevision }) {
      if (events.length === 0) throw new Error(`Append to ${stream} needs at least one event`);
      try {
        const result = await client.appendToStream(
          stream,
          events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })),
          { expectedRevision: toEsdbExpectedRevision(expectedRevision) },
        );
        // The server leaves the position out when it recognised the events as already written (a retried append).
        const position = result.position ? fromEsdbPosition(result.position) : await positionOfRevision(stream, result.nextExpectedRevision);
        return { nextRevision: result.nextExpectedRevision, position };
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          throw new WrongExpectedRevisionError(stream, expectedRevision, error.actualVersion);
        }
        throw error;
      }
    },

    async readStream(stream: string, options: ReadStreamOptions = {}) {
      const until = options.until?.getTime();
      const found: RecordedEvent[] = [];
      try {
        for await (const { event } of client.readStream(stream, { fromRevision: options.fromRevision ?? START })) {
          if (!event) continue;
          const recorded = toRecordedEvent(event);
          if (until === undefined || Date.parse(recorded.metadata.occurredAt) <= until) found.push(recorded);
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw error;
      }
      return found;
    },

    readAll({ after, limit }: ReadAllOptions) {
      return readAllDomainEvents(FORWARDS, after ?? null, limit);
    },

    // Not run on this project's machines (there is no EventStoreDB server here): it type-checks, and
    // the conformance suite covers it wherever EVENTSTORE_URL points at a server.
    readAllBackwards({ before, limit }: ReadAllBackwardsOptions) {
      return readAllDomainEvents(BACKWARDS, before ?? null, limit);
    },

    headPosition,

    // $all shows an event only once it is committed, in commit order: the newest is the head.
    newestPosition: headPosition,

    async close() {
      await client.dispose();
    },
  };
}
