// The EventStoreDB (KurrentDB) adapter of the event store port, chosen when EVENTSTORE_URL is set.
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  type AppendExpectedRevision,
  type Position as EsdbPosition,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import {
  WrongExpectedRevisionError,
  comparePositions,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type Position,
  type ReadAllBackwardsOptions,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
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
        const position = result.position
          ? fromEsdbPosition(result.position)
          : await positionOfRevision(stream, result.nextExpectedRevision);
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

    async readAll({ after, limit }: ReadAllOptions) {
      const found: RecordedEvent[] = [];
      // A plain read of $all takes no server-side filter, so system events are dropped here:
      // read pages until `limit` domain events are found or the log ends.
      const pageSize = limit + 1;
      let lastSeen = after ?? null;
      let logEnded = false;
      while (found.length < limit && !logEnded) {
        const page = client.readAll({
          fromPosition: lastSeen ? { commit: lastSeen.hi, prepare: lastSeen.lo } : START,
          maxCount: pageSize,
        });
        let read = 0;
        try {
          for await (const { event } of page) {
            if (!event) continue;
            read += 1;
            const position = fromEsdbPosition(event.position);
            // Reading from a position includes the event at it.
            if (lastSeen && comparePositions(position, lastSeen) <= 0) continue;
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
    },

    // Not run on this project's machines (there is no EventStoreDB server here): it type-checks, and
    // the conformance suite covers it wherever EVENTSTORE_URL points at a server.
    async readAllBackwards({ before, limit }: ReadAllBackwardsOptions) {
      const found: RecordedEvent[] = [];
      // As in readAll: $all read backwards from END (or from a position) with system events
      // dropped here, page after page until `limit` domain events are found or the log begins.
      const pageSize = limit + 1;
      let lastSeen = before ?? null;
      let logEnded = false;
      while (found.length < limit && !logEnded) {
        const page = client.readAll({
          direction: BACKWARDS,
          fromPosition: lastSeen ? { commit: lastSeen.hi, prepare: lastSeen.lo } : END,
          maxCount: pageSize,
        });
        let read = 0;
        try {
          for await (const { event } of page) {
            if (!event) continue;
            read += 1;
            const position = fromEsdbPosition(event.position);
            // `before` is exclusive, whether or not the server includes the event at the position it starts from.
            if (lastSeen && comparePositions(position, lastSeen) >= 0) continue;
            lastSeen = position;
            if (isSystemEvent(event)) continue;
            found.push(toRecordedEvent(event));
            if (found.length === limit) break;
          }
        } finally {
          await page.cancel();
        }
        logEnded = read < pageSize;
      }
      return found;
    },

    async headPosition() {
      const newestFirst = client.readAll({ fromPosition: END, direction: BACKWARDS });
      try {
        for await (const { event } of newestFirst) {
          if (event && !isSystemEvent(event)) return fromEsdbPosition(event.position);
        }
        return null;
      } finally {
        await newestFirst.cancel();
      }
    },

    async close() {
      await client.dispose();
    },
  };
}
