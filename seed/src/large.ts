import { randomUUID } from 'node:crypto';
import { unitSizes } from '@storage/contracts/enums';
import { currentSchemaVersion, type EventData, type EventType, streams } from '@storage/contracts/events';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import type { EventStore, NewEvent } from '@storage/eventstore/port';

// A large generated history for rebuild benchmarks, three years of 20 facilities: units, most
// of them leased, with a monthly invoice per lease that is sent and paid (some after falling
// overdue); customers whose details change; smart locks that report a heartbeat every day or so.
// Appended straight through the event store port, a whole stream's history per append.

const FACILITIES = 20;
const UNITS_PER_FACILITY = 100;
/** Units 1..LEASED_UNITS of each facility are leased for the whole history, each by its own customer. */
const LEASED_UNITS = 90;
const CUSTOMERS_PER_FACILITY = 200;
const UPDATES_PER_CUSTOMER = 5;
const MONTHS = 36;
/** Every this many invoices, one falls overdue before it is paid. */
const OVERDUE_EVERY = 12;
const LOCKS_PER_FACILITY = 50;
const HEARTBEATS_PER_LOCK = 850;
/** Appends in flight at once. */
const CONCURRENCY = 4;

const HISTORY_MS = MONTHS * 30 * 24 * 3600_000;

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

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

type Append = [stream: string, events: NewEvent[]];

/**
 * The streams of one facility, each as the events of one append, in phases: a phase's appends
 * refer only to streams of earlier phases (a lease to its unit and customer), so they may run at once.
 */
function facilityHistory(index: number, start: number): Append[][] {
  const at = (fraction: number) => new Date(start + Math.floor(fraction * HISTORY_MS));
  const facilityId = randomUUID();
  const facility: Append[] = [
    [
      streams.facility(facilityId),
      [
        event(
          'facility_added',
          { facilityId, name: `Benchmark Storage ${index + 1}`, address: `${index + 1} Long Road`, phone: null, managerName: null, timeZone: 'UTC' },
          at(0),
        ),
      ],
    ],
  ];
  const customers: Append[] = [];
  const units: Append[] = [];
  const leaseStarts: Append[] = [];
  const invoices: Append[] = [];
  const locks: Append[] = [];
  // After the locks they report on: a phase appends its streams side by side.
  const lockHeartbeats: Append[] = [];
  const customerIds: string[] = [];
  for (let c = 0; c < CUSTOMERS_PER_FACILITY; c++) {
    const customerId = randomUUID();
    customerIds.push(customerId);
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
        at(0.001),
      ),
    ];
    for (let u = 0; u < UPDATES_PER_CUSTOMER; u++) {
      customerEvents.push(
        event('customer_updated', { customerId, changes: { phone: `555-${String(u).padStart(4, '0')}` } }, at(0.01 + (u / UPDATES_PER_CUSTOMER) * 0.98)),
      );
    }
    customers.push([streams.customer(customerId), customerEvents]);
  }
  const unitIds: string[] = [];
  const leases: Array<{ leaseId: string; customerId: string; monthlyRate: string }> = [];
  for (let u = 0; u < UNITS_PER_FACILITY; u++) {
    const unitId = randomUUID();
    unitIds.push(unitId);
    const monthlyRate = `${50 + (u % 10) * 10}.00`;
    const unitEvents = [
      event(
        'unit_added',
        {
          unitId,
          facilityId,
          unitNumber: `B${index + 1}-${u + 1}`,
          building: String.fromCharCode(65 + (u % 4)),
          size: unitSizes[u % unitSizes.length]!,
          monthlyRate,
          status: 'available',
          description: null,
          features: NO_UNIT_FEATURES,
        },
        at(0.001),
      ),
    ];
    if (u < LEASED_UNITS) {
      const leaseId = randomUUID();
      const customerId = customerIds[u]!;
      unitEvents.push(event('unit_status_changed', { unitId, status: 'occupied', reason: null, leaseId, reservationId: null }, at(0.002)));
      leaseStarts.push([
        streams.lease(leaseId),
        [event('lease_started', { leaseId, customerId, unitId, facilityId, startDate: isoDay(at(0.002)), monthlyRate, depositAmount: monthlyRate }, at(0.002))],
      ]);
      leases.push({ leaseId, customerId, monthlyRate });
    }
    units.push([streams.unit(unitId), unitEvents]);
  }
  let invoiceCount = 0;
  for (let month = 0; month < MONTHS; month++) {
    const issued = at((month + 0.05) / MONTHS);
    const due = new Date(issued.getTime() + 30 * 24 * 3600_000);
    for (const [l, lease] of leases.entries()) {
      const invoiceId = randomUUID();
      const overdue = ++invoiceCount % OVERDUE_EVERY === 0;
      const paidAt = new Date(due.getTime() + (overdue ? 5 : -3) * 24 * 3600_000);
      const invoiceEvents = [
        event(
          'invoice_generated',
          {
            invoiceId,
            invoiceNumber: `INV-B${index + 1}-${l + 1}-${month + 1}`,
            customerId: lease.customerId,
            leaseId: lease.leaseId,
            amount: lease.monthlyRate,
            dueDate: isoDay(due),
            status: 'draft',
            description: `Rent, month ${month + 1}`,
            // The period it bills, as the billing engine writes it (the rent roll and the report totals read it): this history's months are 30 days.
            lines: [
              {
                kind: 'rent',
                description: `Rent, month ${month + 1}`,
                amount: lease.monthlyRate,
                periodStart: isoDay(issued),
                periodEnd: isoDay(new Date(issued.getTime() + 29 * 24 * 3600_000)),
              },
            ],
          },
          issued,
        ),
        event('invoice_sent', { invoiceId, sentOn: isoDay(new Date(issued.getTime() + 3600_000)) }, new Date(issued.getTime() + 3600_000)),
        ...(overdue ? [event('invoice_overdue', { invoiceId, customerId: lease.customerId }, new Date(due.getTime() + 24 * 3600_000))] : []),
        event(
          'payment_received',
          {
            paymentId: randomUUID(),
            invoiceId,
            customerId: lease.customerId,
            amount: lease.monthlyRate,
            method: 'card',
            paidDate: isoDay(paidAt),
            stripePaymentIntentId: null,
            reference: null,
            receiptId: null,
            invoiceStatus: 'paid',
            openBalance: '0.00',
          },
          paidAt,
        ),
      ];
      invoices.push([streams.invoice(invoiceId), invoiceEvents]);
    }
  }
  for (let l = 0; l < LOCKS_PER_FACILITY; l++) {
    const lockId = randomUUID();
    const lockEvents = [
      event(
        'lock_installed',
        { lockId, serial: `BENCH-${index + 1}-${l + 1}`, unitId: unitIds[l] ?? null, status: 'active', batteryLevel: 100, firmwareVersion: '1.0.0' },
        at(0.002),
      ),
    ];
    // Routine heartbeats (the battery stays above the low line) go on the lock's heartbeat stream, as the gateway route appends them.
    const heartbeats: typeof lockEvents = [];
    for (let h = 0; h < HEARTBEATS_PER_LOCK; h++) {
      heartbeats.push(
        event(
          'lock_heartbeat_received',
          { lockId, batteryLevel: 100 - Math.floor((h * 40) / HEARTBEATS_PER_LOCK), firmwareVersion: '1.0.0' },
          at(0.01 + (h / HEARTBEATS_PER_LOCK) * 0.98),
        ),
      );
    }
    locks.push([streams.lock(lockId), lockEvents]);
    lockHeartbeats.push([streams.lockHeartbeats(lockId), heartbeats]);
  }
  return [facility, customers, units, leaseStarts, invoices, locks, lockHeartbeats];
}

const INVOICE_EVENTS = MONTHS * LEASED_UNITS * 3 + Math.floor((MONTHS * LEASED_UNITS) / OVERDUE_EVERY);

export const LARGE_HISTORY_EVENTS =
  FACILITIES *
  (1 +
    CUSTOMERS_PER_FACILITY * (1 + UPDATES_PER_CUSTOMER) +
    UNITS_PER_FACILITY +
    LEASED_UNITS * 2 +
    INVOICE_EVENTS +
    LOCKS_PER_FACILITY * (1 + HEARTBEATS_PER_LOCK));

/** Appends the large history; returns how many events it appended. */
export async function seedLargeHistory(store: EventStore, options: { now: Date; onProgress?: (appended: number) => void }): Promise<number> {
  const start = options.now.getTime() - HISTORY_MS;
  let appended = 0;
  for (let f = 0; f < FACILITIES; f++) {
    for (const phase of facilityHistory(f, start)) {
      while (phase.length > 0) {
        const chunk = phase.splice(0, CONCURRENCY);
        await Promise.all(chunk.map(([stream, events]) => store.append(stream, events, { expectedRevision: 'no_stream' })));
        appended += chunk.reduce((n, [, events]) => n + events.length, 0);
      }
    }
    options.onProgress?.(appended);
  }
  return appended;
}
