import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { unitSizes } from '@storage/contracts/enums';
import { currentSchemaVersion, type EventData, type EventType, eventSchemas, streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { leaseInvoiceId, leaseInvoiceNumber } from '@storage/domain/billing/lease-billing';
import { moveInPeriod } from '@storage/domain/billing/periods';
import type { EventStore, NewEvent } from '@storage/eventstore/port';

// Active leases for the billing benchmark: facilities in several time zones, each lease moved in
// during one month, its move-in invoice (the engine's own: same id, number and lines) sent and
// paid, and the lease billed through that month's end, as the billing engine leaves it. The next
// billing day that reaches the next month's issue day has one rent invoice to issue per lease.
// Appended straight through the event store port, each stream's history in one append.

export const BENCH_TIME_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'America/Phoenix',
  'America/Puerto_Rico',
  'Europe/London',
  'UTC',
] as const;

export interface BillingLeasesOptions {
  facilities: number;
  leasesPerFacility: number;
  /** The month every lease starts in (YYYY-MM); moves-in spread over its first 27 days. */
  month: string;
  /** Appends in flight at once. */
  concurrency?: number;
  onProgress?: (appended: number) => void;
}

function event<T extends EventType>(type: T, data: EventData<T>, occurredAt: string): NewEvent {
  // The events the product writes: checked against their schema like any other.
  eventSchemas[type].parse(data);
  return {
    id: randomUUID(),
    type,
    data: data as Record<string, unknown>,
    metadata: { actor: { type: 'system' }, correlationId: randomUUID(), causationId: null, schemaVersion: currentSchemaVersion[type], occurredAt },
  };
}

type Append = [stream: string, events: NewEvent[]];

/** One facility's streams, as phases whose appends refer only to streams of earlier phases. */
function facilityHistory(index: number, options: BillingLeasesOptions): Append[][] {
  const facilityId = randomUUID();
  const opened = `${options.month}-01T00:00:00.000Z`;
  const timeZone = BENCH_TIME_ZONES[index % BENCH_TIME_ZONES.length]!;
  const facility: Append[] = [
    [
      streams.facility(facilityId),
      [
        event(
          'facility_added',
          { facilityId, name: `Billing Bench ${index + 1}`, address: `${index + 1} Ledger Lane`, phone: null, managerName: null, timeZone },
          opened,
        ),
      ],
    ],
  ];
  const people: Append[] = [];
  const leases: Append[] = [];
  const invoices: Append[] = [];
  for (let n = 0; n < options.leasesPerFacility; n++) {
    const customerId = randomUUID();
    const unitId = randomUUID();
    const leaseId = randomUUID();
    const startDate = `${options.month}-${String((n % 27) + 1).padStart(2, '0')}`;
    const at = `${startDate}T15:00:00.000Z`;
    const monthlyRate = `${60 + (n % 12) * 15}.00`;
    people.push([
      streams.customer(customerId),
      [
        event(
          'customer_added',
          {
            customerId,
            firstName: 'Bench',
            lastName: `Renter ${index + 1}-${n + 1}`,
            email: `bench-${index + 1}-${n + 1}@billing.test`,
            phone: null,
            address: null,
            emergencyContact: null,
            emergencyPhone: null,
            status: 'active',
            facilityId,
          },
          at,
        ),
      ],
    ]);
    people.push([
      streams.unit(unitId),
      [
        event(
          'unit_added',
          {
            unitId,
            facilityId,
            unitNumber: `BB${index + 1}-${n + 1}`,
            building: String.fromCharCode(65 + (n % 6)),
            size: unitSizes[n % unitSizes.length]!,
            monthlyRate,
            status: 'available',
            description: null,
            features: NO_UNIT_FEATURES,
          },
          opened,
        ),
        event('unit_status_changed', { unitId, status: 'occupied', reason: null, leaseId, reservationId: null }, at),
      ],
    ]);
    const terms = { startDate, monthlyRate, depositAmount: monthlyRate, billedThrough: null, endDate: null };
    const period = moveInPeriod(terms, defaultBillingSettings);
    const invoiceId = leaseInvoiceId(leaseId, period.periodStart);
    const amount = fromCents(period.lines.reduce((sum, line) => sum + toCents(line.amount), 0n));
    leases.push([
      streams.lease(leaseId),
      [
        event('lease_started', { leaseId, customerId, unitId, facilityId, startDate, monthlyRate, depositAmount: monthlyRate }, at),
        event('lease_rent_billed', { leaseId, invoiceId, periodStart: period.periodStart, periodEnd: period.periodEnd }, at),
      ],
    ]);
    invoices.push([
      streams.invoice(invoiceId),
      [
        event(
          'invoice_generated',
          {
            invoiceId,
            invoiceNumber: leaseInvoiceNumber(period.periodStart, invoiceId),
            customerId,
            leaseId,
            amount,
            dueDate: period.dueDate,
            status: 'draft',
            description: 'Move-in charges',
            lines: period.lines,
          },
          at,
        ),
        event('invoice_sent', { invoiceId, sentOn: startDate }, at),
        event(
          'payment_received',
          {
            paymentId: randomUUID(),
            invoiceId,
            customerId,
            amount,
            method: 'card_present',
            paidDate: startDate,
            stripePaymentIntentId: null,
            reference: null,
            receiptId: null,
            invoiceStatus: 'paid',
            openBalance: '0.00',
          },
          at,
        ),
      ],
    ]);
  }
  return [facility, people, leases, invoices];
}

/** Events per lease: customer 1, unit 2, lease 2, move-in invoice 3. */
export const EVENTS_PER_BENCH_LEASE = 8;

/** Appends the facilities and their leases; returns how many events it appended. */
export async function seedBillingLeases(store: EventStore, options: BillingLeasesOptions): Promise<number> {
  const concurrency = options.concurrency ?? 8;
  let appended = 0;
  for (let f = 0; f < options.facilities; f++) {
    for (const phase of facilityHistory(f, options)) {
      let next = 0;
      const worker = async () => {
        while (next < phase.length) {
          const [stream, events] = phase[next++]!;
          await store.append(stream, events, { expectedRevision: 'no_stream' });
          appended += events.length;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    }
    options.onProgress?.(appended);
  }
  return appended;
}
