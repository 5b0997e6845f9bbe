import { currentSchemaVersion, streams, type EventData, type EventType } from '@storage/contracts/events';
import { unitSizes } from '@storage/contracts/enums';
import type { EventStore, NewEvent } from '@storage/eventstore/port';
import { randomUUID } from 'node:crypto';

// A large generated history for rebuild benchmarks: facilities with units, smart locks that
// report a heartbeat every few hours for a year, and customers whose details change over time.
// Appended straight through the event store port, a whole stream's history per append.

const FACILITIES = 20;
const UNITS_PER_FACILITY = 50;
const LOCKS_PER_FACILITY = 50;
const HEARTBEATS_PER_LOCK = 1000;
const CUSTOMERS_PER_FACILITY = 200;
const UPDATES_PER_CUSTOMER = 20;
/** Appends in flight at once. */
const CONCURRENCY = 4;

const HISTORY_MS = 365 * 24 * 3600_000;

function event<T extends EventType>(type: T, data: EventData<T>, occurredAt: Date): NewEvent {
  return {
    id: randomUUID(),
    type,
    data: data as Record<string, unknown>,
    metadata: {
      actor: { type: 'system' },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: currentSchemaVersion[type],
      occurredAt: occurredAt.toISOString(),
    },
  };
}

/** The streams of one facility, each as the events of one append. */
function facilityHistory(index: number, start: number): Array<[string, NewEvent[]]> {
  const at = (fraction: number) => new Date(start + Math.floor(fraction * HISTORY_MS));
  const facilityId = randomUUID();
  const histories: Array<[string, NewEvent[]]> = [
    [
      streams.facility(facilityId),
      [event('facility_added', { facilityId, name: `Benchmark Storage ${index + 1}`, address: `${index + 1} Long Road`, phone: null, managerName: null }, at(0))],
    ],
  ];
  const unitIds: string[] = [];
  for (let u = 0; u < UNITS_PER_FACILITY; u++) {
    const unitId = randomUUID();
    unitIds.push(unitId);
    histories.push([
      streams.unit(unitId),
      [
        event(
          'unit_added',
          {
            unitId,
            facilityId,
            unitNumber: `B${index + 1}-${u + 1}`,
            building: 'A',
            size: unitSizes[u % unitSizes.length]!,
            monthlyRate: `${50 + (u % 10) * 10}.00`,
            status: 'available',
            description: null,
          },
          at(0.001),
        ),
      ],
    ]);
  }
  for (let l = 0; l < LOCKS_PER_FACILITY; l++) {
    const lockId = randomUUID();
    const lockEvents = [
      event('lock_installed', { lockId, serial: `BENCH-${index + 1}-${l + 1}`, unitId: unitIds[l] ?? null, status: 'active', batteryLevel: 100, firmwareVersion: '1.0.0' }, at(0.002)),
    ];
    for (let h = 0; h < HEARTBEATS_PER_LOCK; h++) {
      lockEvents.push(event('lock_heartbeat_received', { lockId, batteryLevel: 100 - Math.floor((h * 40) / HEARTBEATS_PER_LOCK), firmwareVersion: '1.0.0' }, at(0.01 + (h / HEARTBEATS_PER_LOCK) * 0.98)));
    }
    histories.push([streams.lock(lockId), lockEvents]);
  }
  for (let c = 0; c < CUSTOMERS_PER_FACILITY; c++) {
    const customerId = randomUUID();
    const customerEvents = [
      event(
        'customer_added',
        {
          customerId,
          firstName: 'Renter',
          lastName: `${index + 1}-${c + 1}`,
          email: `renter-${index + 1}-${c + 1}@bench.test`,
          phone: null,
          address: null,
          emergencyContact: null,
          emergencyPhone: null,
          status: 'active',
          facilityId,
        },
        at(0.003),
      ),
    ];
    for (let u = 0; u < UPDATES_PER_CUSTOMER; u++) {
      customerEvents.push(event('customer_updated', { customerId, changes: { phone: `555-${String(u).padStart(4, '0')}` } }, at(0.01 + (u / UPDATES_PER_CUSTOMER) * 0.98)));
    }
    histories.push([streams.customer(customerId), customerEvents]);
  }
  return histories;
}

export const LARGE_HISTORY_EVENTS =
  FACILITIES * (1 + UNITS_PER_FACILITY + LOCKS_PER_FACILITY * (1 + HEARTBEATS_PER_LOCK) + CUSTOMERS_PER_FACILITY * (1 + UPDATES_PER_CUSTOMER));

/** Appends the large history; returns how many events it appended. */
export async function seedLargeHistory(store: EventStore, options: { now: Date; onProgress?: (appended: number) => void }): Promise<number> {
  const start = options.now.getTime() - HISTORY_MS;
  let appended = 0;
  for (let f = 0; f < FACILITIES; f++) {
    const [facility, ...pending] = facilityHistory(f, start);
    // The facility first: its units and customers refer to it.
    await store.append(facility![0], facility![1], { expectedRevision: 'no_stream' });
    appended += 1;
    while (pending.length > 0) {
      const chunk = pending.splice(0, CONCURRENCY);
      await Promise.all(chunk.map(([stream, events]) => store.append(stream, events, { expectedRevision: 'no_stream' })));
      appended += chunk.reduce((n, [, events]) => n + events.length, 0);
    }
    options.onProgress?.(appended);
  }
  return appended;
}
