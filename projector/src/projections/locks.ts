import { sql } from 'slonik';
import type { Projection } from '../projection.ts';

// A lock row carries its unit's number and facility (the list searches and scopes by them); the
// units projection runs first, so the unit is already there.
export const locksProjection: Projection = {
  name: 'locks',
  tables: ['locks'],
  async apply(tx, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'lock_installed': {
        const d = event.data;
        await tx.query(sql.unsafe`
          INSERT INTO locks (id, lock_id, unit_id, unit_number, facility_id, status, battery_level, firmware_version, created_at, updated_at)
          VALUES (${d.lockId}, ${d.serial}, ${d.unitId}, (SELECT unit_number FROM units WHERE id = ${d.unitId}),
                  (SELECT facility_id FROM units WHERE id = ${d.unitId}), ${d.status}, ${d.batteryLevel}, ${d.firmwareVersion}, ${at}, ${at})`);
        return;
      }
      case 'lock_heartbeat_received': {
        const d = event.data;
        await tx.query(sql.unsafe`
          UPDATE locks SET battery_level = ${d.batteryLevel}, firmware_version = COALESCE(${d.firmwareVersion}, firmware_version),
                           last_seen = ${at}, updated_at = ${at}
          WHERE id = ${d.lockId}`);
        return;
      }
      case 'lock_battery_low':
        await tx.query(sql.unsafe`UPDATE locks SET battery_level = ${event.data.batteryLevel}, updated_at = ${at} WHERE id = ${event.data.lockId}`);
        return;
      case 'lock_status_changed':
        await tx.query(sql.unsafe`UPDATE locks SET status = ${event.data.status}, updated_at = ${at} WHERE id = ${event.data.lockId}`);
        return;
      case 'lock_assigned':
        await tx.query(sql.unsafe`
          UPDATE locks SET unit_id = ${event.data.unitId}, unit_number = (SELECT unit_number FROM units WHERE id = ${event.data.unitId}),
                           facility_id = (SELECT facility_id FROM units WHERE id = ${event.data.unitId}), updated_at = ${at}
          WHERE id = ${event.data.lockId}`);
        return;
    }
  },
};
