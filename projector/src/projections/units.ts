import type { Projection } from '../projection.ts';

export const unitsProjection: Projection = {
  name: 'units',
  tables: ['units'],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'unit_added': {
        const d = event.data;
        rows.insert('units', {
          id: d.unitId,
          unit_number: d.unitNumber,
          building: d.building,
          facility_id: d.facilityId,
          size: d.size,
          monthly_rate: d.monthlyRate,
          status: d.status,
          description: d.description,
          created_at: at,
          updated_at: at,
        });
        return;
      }
      case 'unit_status_changed': {
        const unit = await rows.get('units', event.data.unitId);
        if (!unit) return;
        await rows.update('units', unit.id, { status: event.data.status, updated_at: at });
        // The facility's occupied count follows the unit into and out of 'occupied'.
        const change = Number(event.data.status === 'occupied') - Number(unit.status === 'occupied');
        const facility = await rows.get('facilities', unit.facility_id);
        if (facility && change !== 0) await rows.update('facilities', facility.id, { occupied_units: facility.occupied_units + change });
        return;
      }
    }
  },
};
