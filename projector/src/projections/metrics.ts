import type { UnitStatus } from '@storage/contracts/enums';
import type { EventType } from '@storage/contracts/events';
import { defineProjection, type ProjectedEvent } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';
import type { CounterTables } from '../read-model-tables.ts';

// The dashboard's and the reports' figures, per facility and day (UTC): what happened that day
// (new customers, move-ins and move-outs, units filled and how long they stood empty) and by how
// much the stock figures changed (units, occupied units). Money is not counted here: the
// dashboard and the reports read it from the ledger and its totals (report-totals). A stock
// figure at the end of a past month is today's figure less the changes since, so month-over-month
// changes come from the events, not from snapshots taken on time. The units and occupied units
// change per building too, for the occupancy of each building. (Active customers are renters with
// a lease in effect: the leases' own dates tell them for any day, see api/src/dashboard/queries.ts.)

/** The events that move the figures (a case of another type does not compile). */
const handled = ['customer_added', 'customer_updated', 'unit_added', 'unit_status_changed'] as const satisfies readonly EventType[];
type Handled = (typeof handled)[number];

type Changes = Partial<Record<CounterTables['metrics_daily']['figures'], number | bigint>>;

/** Adds to a facility's figures of one day. */
function record(rows: ReadModelSession, facilityId: string | null, day: string, changes: Changes): void {
  rows.count('metrics_daily', { facility_id: facilityId, day }, changes);
}

/** A change of a unit's counts: its facility's figures and its building's of the day. */
function recordUnit(rows: ReadModelSession, unit: { facility_id: string | null; building: string }, day: string, changes: Changes): void {
  record(rows, unit.facility_id, day, changes);
  const { units_change = 0, occupied_units_change = 0 } = changes;
  rows.count('metrics_building_daily', { facility_id: unit.facility_id, building: unit.building, day }, { units_change, occupied_units_change });
}

const dayOf = (isoTimestamp: string) => isoTimestamp.slice(0, 10);
const secondsBetween = (from: string, to: string) => Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));

/**
 * A unit is vacant while available or reserved; maintenance pauses the clock. When a lease fills
 * it, the time it stood vacant is recorded as one fill.
 */
async function changeUnitStatus(rows: ReadModelSession, unitId: string, status: UnitStatus, at: string) {
  const unit = await rows.get('metrics_units', unitId);
  if (!unit || unit.status === status) return;
  const day = dayOf(at);
  const vacantSeconds = unit.vacant_seconds + (unit.vacant_since ? secondsBetween(unit.vacant_since, at) : 0);
  const wasVacant = unit.vacant_since !== null || unit.vacant_seconds > 0;
  let next: { vacant_since: string | null; vacant_seconds: number };
  if (status === 'occupied') {
    next = { vacant_since: null, vacant_seconds: 0 };
    recordUnit(rows, unit, day, {
      occupied_units_change: 1,
      move_ins: 1,
      ...(wasVacant ? { units_filled: 1, vacant_seconds_filled: vacantSeconds } : {}),
    });
  } else {
    if (unit.status === 'occupied') recordUnit(rows, unit, day, { occupied_units_change: -1, move_outs: 1 });
    next =
      status === 'maintenance'
        ? { vacant_since: null, vacant_seconds: vacantSeconds }
        : { vacant_since: unit.vacant_since ?? at, vacant_seconds: unit.vacant_seconds };
  }
  await rows.update('metrics_units', unitId, { status, ...next });
}

async function apply(rows: ReadModelSession, event: ProjectedEvent<Handled>): Promise<void> {
  const at = event.metadata.occurredAt;
  const day = dayOf(at);
  switch (event.type) {
    case 'unit_added': {
      const d = event.data;
      const vacantSince = d.status === 'available' || d.status === 'reserved' ? at : null;
      const unit = { unit_id: d.unitId, facility_id: d.facilityId, building: d.building, status: d.status, vacant_since: vacantSince, vacant_seconds: 0 };
      rows.insert('metrics_units', unit);
      recordUnit(rows, unit, day, { units_change: 1, occupied_units_change: d.status === 'occupied' ? 1 : 0 });
      return;
    }
    case 'unit_status_changed':
      await changeUnitStatus(rows, event.data.unitId, event.data.status, at);
      return;
    case 'customer_added': {
      const d = event.data;
      rows.insert('metrics_customers', { customer_id: d.customerId, facility_id: d.facilityId });
      record(rows, d.facilityId, day, { customers_added: 1 });
      return;
    }
    case 'customer_updated': {
      // Only edits written before an edit stopped moving customers between facilities carry one.
      const { customerId, changes } = event.data;
      if (!('facilityId' in changes)) return;
      const before = await rows.get('metrics_customers', customerId);
      const facilityId = changes.facilityId ?? null;
      if (!before || before.facility_id === facilityId) return;
      rows.insert('metrics_customers', { ...before, facility_id: facilityId });
      return;
    }
  }
}

export const metricsProjection = defineProjection({
  name: 'metrics',
  tables: ['metrics_units', 'metrics_customers', 'metrics_daily', 'metrics_building_daily'],
  canHandle: handled,
  apply,
});
