import { sql } from 'slonik';
import type { Projection } from '../projection.ts';

export const unitsProjection: Projection = {
  name: 'units',
  tables: ['units'],
  async apply(tx, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'unit_added': {
        const d = event.data;
        await tx.query(sql.unsafe`
          INSERT INTO units (id, unit_number, building, facility_id, size, monthly_rate, status, description, created_at, updated_at)
          VALUES (${d.unitId}, ${d.unitNumber}, ${d.building}, ${d.facilityId}, ${d.size}, ${d.monthlyRate}, ${d.status}, ${d.description}, ${at}, ${at})`);
        return;
      }
      case 'unit_status_changed': {
        // The facility's occupied count follows the unit into and out of 'occupied'.
        await tx.query(sql.unsafe`
          WITH previous AS (SELECT id, status, facility_id FROM units WHERE id = ${event.data.unitId}),
          updated AS (UPDATE units SET status = ${event.data.status}, updated_at = ${at} WHERE id = ${event.data.unitId} RETURNING id)
          UPDATE facilities f SET occupied_units = f.occupied_units
            + (CASE WHEN ${event.data.status} = 'occupied' THEN 1 ELSE 0 END)
            - (CASE WHEN p.status = 'occupied' THEN 1 ELSE 0 END)
          FROM previous p WHERE f.id = p.facility_id`);
        return;
      }
    }
  },
};
