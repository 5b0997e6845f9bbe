import type { AppendResult, EventStore, ExpectedRevision, NewEvent, ReadStreamOptions, RecordedEvent } from '@storage/eventstore/port';

/**
 * The event store as the demo seed sees it while it writes the history: whole streams it read are
 * kept until it appends to them, so the billing day's daily look at every lease (and each
 * command's look at the facility, the settings, the customer) costs no query when nothing changed.
 * Only for a writer that is (nearly) alone: an append refused for its expected revision drops the
 * stream, so the command's retry reads it afresh, and every other append drops it too.
 */
export function cachedStreams(store: EventStore): EventStore {
  const streams = new Map<string, RecordedEvent[]>();
  return {
    kind: store.kind,
    async append(stream: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
      streams.delete(stream);
      try {
        return await store.append(stream, events, options);
      } finally {
        streams.delete(stream);
      }
    },
    async readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
      if (options?.fromRevision !== undefined || options?.until !== undefined) return store.readStream(stream, options);
      let events = streams.get(stream);
      if (!events) {
        events = await store.readStream(stream);
        streams.set(stream, events);
      }
      return [...events];
    },
    readAll: (options) => store.readAll(options),
    readAllBackwards: (options) => store.readAllBackwards(options),
    headPosition: () => store.headPosition(),
    newestPosition: () => store.newestPosition(),
    close: () => store.close(),
  };
}
