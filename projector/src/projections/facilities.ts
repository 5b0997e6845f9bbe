import { defineProjection } from '../projection.ts';

// totalUnits and occupiedUnits are counted here from unit events, never typed in. This projection
// runs before the units one, so the unit row it reads is as it stood before the event.
export const facilitiesProjection = defineProjection({
  name: 'facilities',
  tables: ['facilities'],
  reads: ['units'],
  canHandle: ['facility_added', 'facility_updated', 'unit_added', 'unit_status_changed'],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'facility_added': {
        const d = event.data;
        rows.insert('facilities', {
          id: d.facilityId,
          name: d.name,
          address: d.address,
          phone: d.phone,
          manager_name: d.managerName,
          time_zone: d.timeZone,
          access_hours: d.accessHours ?? null,
          total_units: 0,
          occupied_units: 0,
          created_at: at,
          updated_at: at,
        });
        return;
      }
      case 'facility_updated': {
        const c = event.data.changes;
        await rows.update('facilities', event.data.facilityId, {
          ...(c.name !== undefined && { name: c.name }),
          ...(c.address !== undefined && { address: c.address }),
          ...('phone' in c && { phone: c.phone ?? null }),
          ...('managerName' in c && { manager_name: c.managerName ?? null }),
          ...(c.timeZone !== undefined && { time_zone: c.timeZone }),
          ...(c.accessHours !== undefined && { access_hours: c.accessHours }),
          updated_at: at,
        });
        return;
      }
      case 'unit_status_changed': {
        // The occupied count follows the unit into and out of 'occupied'.
        const unit = await rows.get('units', event.data.unitId);
        const facility = await rows.get('facilities', unit?.facility_id);
        const change = Number(event.data.status === 'occupied') - Number(unit?.status === 'occupied');
        if (facility && change !== 0) await rows.update('facilities', facility.id, { occupied_units: facility.occupied_units + change });
        return;
      }
      case 'unit_added': {
        const facility = await rows.get('facilities', event.data.facilityId);
        if (!facility) return;
        await rows.update('facilities', facility.id, {
          total_units: facility.total_units + 1,
          occupied_units: facility.occupied_units + (event.data.status === 'occupied' ? 1 : 0),
        });
        return;
      }
    }
  },
});
