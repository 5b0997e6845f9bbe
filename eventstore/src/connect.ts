// Chooses the event store for this process: EventStoreDB when a URL is given, else Postgres.
import type { EventStore } from './port.ts';
import { createPostgresEventStore } from './postgres.ts';

export interface ConnectEventStoreOptions {
  /** EVENTSTORE_URL, e.g. esdb://admin:changeit@localhost:2113?tls=false */
  eventStoreUrl?: string | undefined;
  /** The application database: the event store lives in it when there is no EventStoreDB. */
  databaseUrl: string;
}

export async function connectEventStore({ eventStoreUrl, databaseUrl }: ConnectEventStoreOptions): Promise<EventStore> {
  if (eventStoreUrl) {
    // Loaded only when asked for: its gRPC client is a quarter of a second of every process's
    // start (and of every test file's), for a store most runs never use.
    const { createEventStoreDbEventStore } = await import('./eventstoredb.ts');
    return createEventStoreDbEventStore(eventStoreUrl);
  }
  const store = await createPostgresEventStore({ connectionString: databaseUrl });
  await store.migrate();
  return store;
}
