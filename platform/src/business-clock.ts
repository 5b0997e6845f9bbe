import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@storage/contracts/events';
import type { EventStore } from '@storage/eventstore/port';

// The product's one clock for business: the wall clock, or as many days ahead of it as a demo or a
// day run ahead (billing:run --date) moved it (business_day_advanced). Every command's time, the
// ledger's dates, the reports' today and the billing day come from it, so a demo advanced three
// months reads as that day everywhere, and an install no one moved runs on the wall clock.

const DAY_MS = 86_400_000;
/** How often a process looks whether another moved the clock (the CLI's billing:run). */
const REFRESH_MS = 2_000;

/** Whole days from `from` to `to` (ISO dates). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** How many days ahead of the wall clock the business clock runs, as its stream says (0: never moved). */
export async function readDaysAhead(store: EventStore): Promise<number> {
  let ahead = 0;
  for (const recorded of await store.readStream(streams.businessClock())) {
    if (recorded.type !== 'business_day_advanced') continue;
    const { date, from } = recorded.data as Extract<DomainEvent, { type: 'business_day_advanced' }>['data'];
    ahead = Math.max(ahead, daysBetween(from, date));
  }
  return ahead;
}

export interface BusinessClock {
  /** The business time now: the wall clock plus the days the clock runs ahead. */
  now(): Date;
  /** Reads the clock's stream again (after this process moved it, or to learn another did). */
  refresh(): Promise<void>;
  stop(): void;
}

/** The clock, read at once and again every couple of seconds; `wall` is the wall clock (tests pass another). */
export async function startBusinessClock(store: EventStore, wall: () => Date = () => new Date()): Promise<BusinessClock> {
  let ahead = await readDaysAhead(store);
  const refresh = async () => {
    ahead = await readDaysAhead(store);
  };
  const timer = setInterval(() => {
    refresh().catch(() => {
      // The last known offset stands until the store answers again.
    });
  }, REFRESH_MS);
  timer.unref();
  return {
    now: () => new Date(wall().getTime() + ahead * DAY_MS),
    refresh,
    stop: () => clearInterval(timer),
  };
}

/**
 * Moves the business clock forward so that today (UTC) is `date`; a date not ahead of the clock's
 * today moves nothing. Returns whether it moved.
 */
export async function advanceBusinessDay(store: EventStore, date: string, wall: Date = new Date()): Promise<boolean> {
  const from = wall.toISOString().slice(0, 10);
  const ahead = await readDaysAhead(store);
  if (daysBetween(from, date) <= ahead) return false;
  const metadata = { actor: { type: 'system' as const }, correlationId: randomUUID(), causationId: null, schemaVersion: 1, occurredAt: wall.toISOString() };
  await store.append(streams.businessClock(), [{ id: randomUUID(), type: 'business_day_advanced', data: { date, from }, metadata }], {
    expectedRevision: 'any',
  });
  return true;
}
