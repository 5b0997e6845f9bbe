import { sql } from 'slonik';
import type { Projection } from '../projection.ts';

// totalUnits and occupiedUnits are counted here from unit events, never typed in.
export const facilitiesProjection: Projection = {
  name: 'facilities',
  tables: ['facilities'],
  async apply(tx, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'facility_added': {
        const d = event.data;
        await tx.query(sql.unsafe`
          INSERT INTO facilities (id, name, address, phone, manager_name, created_at, updated_at)
          VALUES (${d.facilityId}, ${d.name}, ${d.address}, ${d.phone}, ${d.managerName}, ${at}, ${at})`);
        return;
      }
      case 'facility_updated': {
        const c = event.data.changes;
        await tx.query(sql.unsafe`
          UPDATE facilities SET
            name = COALESCE(${c.name ?? null}, name),
            address = COALESCE(${c.address ?? null}, address),
            phone = CASE WHEN ${'phone' in c} THEN ${c.phone ?? null} ELSE phone END,
            manager_name = CASE WHEN ${'managerName' in c} THEN ${c.managerName ?? null} ELSE manager_name END,
            updated_at = ${at}
          WHERE id = ${event.data.facilityId}`);
        return;
      }
      case 'unit_added': {
        if (!event.data.facilityId) return;
        const occupied = event.data.status === 'occupied' ? 1 : 0;
        await tx.query(sql.unsafe`
          UPDATE facilities SET total_units = total_units + 1, occupied_units = occupied_units + ${occupied}
          WHERE id = ${event.data.facilityId}`);
        return;
      }
    }
  },
};
