import { defineProjection } from '../projection.ts';

/** When the gap between desired and reported began: kept while it lasts, null once they agree (never reported counts as normal). */
function differsSince(lock: { differs_since?: string | null }, desired: string, reported: string | null, at: string): string | null {
  if (desired === (reported ?? 'normal')) return null;
  return lock.differs_since ?? at;
}

// A lock row carries its unit's number and facility (the list searches and scopes by them); the
// units projection runs first, so the unit is already there.
export const locksProjection = defineProjection({
  name: 'locks',
  tables: ['locks'],
  reads: ['units'],
  canHandle: [
    'lock_assigned',
    'lock_battery_low',
    'lock_desired_state_changed',
    'lock_heartbeat_received',
    'lock_installed',
    'lock_state_reported',
    'lock_status_changed',
  ],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'lock_installed': {
        const d = event.data;
        const unit = await rows.get('units', d.unitId);
        rows.insert('locks', {
          id: d.lockId,
          lock_id: d.serial,
          unit_id: d.unitId,
          unit_number: unit?.unit_number ?? null,
          facility_id: unit?.facility_id ?? null,
          status: d.status,
          battery_level: d.batteryLevel,
          last_seen: null,
          firmware_version: d.firmwareVersion,
          created_at: at,
          updated_at: at,
        });
        return;
      }
      case 'lock_heartbeat_received': {
        const d = event.data;
        await rows.update('locks', d.lockId, {
          battery_level: d.batteryLevel,
          ...(d.firmwareVersion !== null && { firmware_version: d.firmwareVersion }),
          last_seen: at,
          updated_at: at,
        });
        return;
      }
      case 'lock_battery_low':
        await rows.update('locks', event.data.lockId, { battery_level: event.data.batteryLevel, updated_at: at });
        return;
      case 'lock_status_changed':
        await rows.update('locks', event.data.lockId, { status: event.data.status, updated_at: at });
        return;
      case 'lock_desired_state_changed': {
        const lock = await rows.get('locks', event.data.lockId);
        if (!lock) return;
        const desired = event.data.desired;
        await rows.update('locks', lock.id, {
          desired_state: desired,
          desired_changed_at: at,
          differs_since: differsSince(lock, desired, lock.reported_state ?? null, at),
          updated_at: at,
        });
        return;
      }
      case 'lock_state_reported': {
        const lock = await rows.get('locks', event.data.lockId);
        if (!lock) return;
        const reported = event.data.reported;
        await rows.update('locks', lock.id, {
          reported_state: reported,
          reported_at: at,
          differs_since: differsSince(lock, lock.desired_state ?? 'normal', reported, at),
          updated_at: at,
        });
        return;
      }
      case 'lock_assigned': {
        const unit = await rows.get('units', event.data.unitId);
        await rows.update('locks', event.data.lockId, {
          unit_id: event.data.unitId,
          unit_number: unit?.unit_number ?? null,
          facility_id: unit?.facility_id ?? null,
          updated_at: at,
        });
        return;
      }
    }
  },
});
