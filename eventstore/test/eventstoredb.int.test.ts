import { describeEventStoreConformance } from '@storage/eventstore/conformance';
import { createEventStoreDbEventStore } from '@storage/eventstore/eventstoredb';
import { describe } from 'vitest';

const eventStoreUrl = process.env.EVENTSTORE_URL;

const describeWhenServer = eventStoreUrl ? describe : describe.skip;
const title = eventStoreUrl ? 'EventStoreDB at EVENTSTORE_URL' : 'EVENTSTORE_URL not set: no EventStoreDB server on this machine';

describeWhenServer(title, () => {
  describeEventStoreConformance('eventstoredb', async () => {
    const store = createEventStoreDbEventStore(eventStoreUrl!);
    return { store, cleanup: () => store.close() };
  });
});
