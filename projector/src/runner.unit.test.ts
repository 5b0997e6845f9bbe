import type { CommonQueryMethods } from 'slonik';
import { describe, expect, it, vi } from 'vitest';
import { defineProjection, type ProjectedEvent, type Projection } from './projection.ts';
import { readModelProjections } from './projections.ts';
import { ReadModelSession } from './read-model-session.ts';
import { applyToSession, projectionDependents, projectionLanes, projectionSources, retryDelayMs } from './runner.ts';

describe('projection lanes', () => {
  it('puts each projection with those whose tables it reads, and leaves the others alone', () => {
    expect(projectionLanes(readModelProjections).map((lane) => lane.map((p) => p.name))).toEqual([
      ['staff'],
      [
        'settings',
        'facilities',
        'units',
        'customers',
        'leases',
        'invoices',
        'ledger',
        'report-totals',
        'autopay',
        'locks',
        'access',
        'delinquency',
        'activities',
        'notifications',
        'audit-log',
      ],
      ['merchandise'],
      ['gateway_keys'],
      ['reservations'],
      ['billing_runs'],
      ['metrics'],
    ]);
  });

  it('keeps the order of application inside a lane, and ignores tables no given projection owns', () => {
    const [units, customers, locks, activities] = ['units', 'customers', 'locks', 'activities'].map(
      (name) => readModelProjections.find((p) => p.name === name)!,
    );
    expect(projectionLanes([locks!, units!]).map((lane) => lane.map((p) => p.name))).toEqual([['locks', 'units']]);
    expect(projectionLanes([customers!, locks!]).map((lane) => lane.map((p) => p.name))).toEqual([['customers'], ['locks']]);
    expect(projectionLanes([activities!]).map((lane) => lane.map((p) => p.name))).toEqual([['activities']]);
  });
});

describe('what a failing projection holds, and what a rebuild of one applies beside it', () => {
  const names = (projections: Projection[]) => projections.map((p) => p.name);

  it('holds the projections that read its tables, directly or through another, and none of those it reads', () => {
    // Nothing reads the feed, the notifications or the audit log: a failure of theirs holds nothing.
    for (const name of ['activities', 'notifications', 'audit-log', 'report-totals'])
      expect(names(projectionDependents(readModelProjections, [name])), name).toEqual([]);
    expect(names(projectionDependents(readModelProjections, ['invoices']))).toEqual([
      'ledger',
      'report-totals',
      'autopay',
      'activities',
      'notifications',
      'audit-log',
    ]);
    // Through the ledger, which reads the facilities' tables.
    expect(names(projectionDependents(readModelProjections, ['facilities']))).toEqual(['ledger', 'report-totals']);
    expect(names(projectionDependents(readModelProjections, ['staff']))).toEqual([]);
  });

  it('rebuilds a reader with the projections whose tables it reads, directly or through another, in the order of application', () => {
    expect(names(projectionSources(readModelProjections, ['activities']))).toEqual(['units', 'customers', 'invoices', 'locks']);
    expect(names(projectionSources(readModelProjections, ['report-totals']))).toEqual(['facilities', 'units', 'customers', 'invoices', 'ledger']);
    expect(names(projectionSources(readModelProjections, ['customers']))).toEqual([]);
  });
});

describe('retry delay', () => {
  it('doubles from 1 s after each failed attempt, up to 5 minutes', () => {
    expect([1, 2, 3, 4, 8, 9, 10, 50].map((attempts) => retryDelayMs(attempts))).toEqual([1000, 2000, 4000, 8000, 128_000, 256_000, 300_000, 300_000]);
    expect(retryDelayMs(3, { firstDelayMs: 200, maxDelayMs: 500 })).toBe(500);
  });
});

describe('which projections an event is given to', () => {
  const event = (type: string, n: number) =>
    ({
      type,
      data: {},
      id: `event-${n}`,
      streamName: 'test',
      metadata: { actor: { type: 'system' }, correlationId: 'c', causationId: null, schemaVersion: 1, occurredAt: '2026-01-01T00:00:00.000Z' },
      position: { hi: 1n, lo: BigInt(n) },
      recordedAt: '2026-01-01T00:00:00.000Z',
    }) as unknown as ProjectedEvent;

  it('gives each event, in order, only to the projections that declare its type, and every event to one that declares none', async () => {
    const seen: string[] = [];
    const locks = defineProjection({
      name: 'locks-like',
      tables: [],
      canHandle: ['lock_heartbeat_received', 'lock_installed'],
      async apply(_rows, e) {
        seen.push(`locks-like ${e.type}`);
      },
    });
    const staff = defineProjection({
      name: 'staff-like',
      tables: [],
      canHandle: ['staff_registered'],
      async apply(_rows, e) {
        // @ts-expect-error a type left out of canHandle cannot be handled: it would never arrive
        if (e.type === 'staff_role_changed') seen.push('never');
        seen.push(`staff-like ${e.type}`);
      },
    });
    const everything: Projection = {
      name: 'everything',
      tables: [],
      async apply(_rows, e) {
        seen.push(`everything ${e.type}`);
      },
    };
    // No projection here owns a table, so the session never asks the database anything.
    const session = new ReadModelSession({} as CommonQueryMethods);
    const events = ['lock_installed', 'lock_heartbeat_received', 'staff_registered', 'customer_added'].map(event);
    await applyToSession(session, [locks, staff, everything], events);
    expect(seen).toEqual([
      'locks-like lock_installed',
      'everything lock_installed',
      'locks-like lock_heartbeat_received',
      'everything lock_heartbeat_received',
      'staff-like staff_registered',
      'everything staff_registered',
      'everything customer_added',
    ]);
  });
});

describe('which rows a batch loads up front', () => {
  it('loads only the tables of the projections that handle the events: a customer added loads no gateway key', async () => {
    const customersLike = defineProjection({ name: 'customers-like', tables: ['customers'], canHandle: ['customer_added'], async apply() {} });
    const gatewayKeys = readModelProjections.find((p) => p.name === 'gateway_keys')!;
    const session = new ReadModelSession({} as CommonQueryMethods);
    const prefetch = vi.spyOn(session, 'prefetch').mockResolvedValue(undefined);
    const added = {
      type: 'customer_added',
      data: { customerId: 'customer-1', facilityId: 'facility-1' },
      id: 'event-1',
      streamName: 'customer-customer-1',
      metadata: { actor: { type: 'system' }, correlationId: 'c', causationId: null, schemaVersion: 1, occurredAt: '2026-01-01T00:00:00.000Z' },
      position: { hi: 1n, lo: 1n },
      recordedAt: '2026-01-01T00:00:00.000Z',
    } as unknown as ProjectedEvent;
    await applyToSession(session, [customersLike, gatewayKeys], [added]);
    expect(prefetch.mock.calls[0]![0]).toEqual(new Map([['customers', new Set(['customer-1'])]]));
  });
});
