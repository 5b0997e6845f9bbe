import type { UnitFeatures } from '@storage/contracts/unit-features';
import { defineProjection } from '../projection.ts';

const featureColumns = (f: UnitFeatures) => ({ climate_controlled: f.climateControlled, drive_up: f.driveUp, floor: f.floor, lock_type: f.lockType });

export const unitsProjection = defineProjection({
  name: 'units',
  tables: ['units'],
  canHandle: ['unit_added', 'unit_status_changed', 'unit_features_changed'],
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
          ...featureColumns(d.features),
          created_at: at,
          updated_at: at,
        });
        return;
      }
      case 'unit_status_changed':
        await rows.update('units', event.data.unitId, { status: event.data.status, updated_at: at });
        return;
      case 'unit_features_changed':
        await rows.update('units', event.data.unitId, { ...featureColumns(event.data.features), updated_at: at });
        return;
    }
  },
});
