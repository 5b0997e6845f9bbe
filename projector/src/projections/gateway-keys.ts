import { defineProjection } from '../projection.ts';

// Each facility's current lock gateway key, by hash: the heartbeat route finds the facility a
// key belongs to here. A rotation replaces the row, so the old hash no longer finds it.
export const gatewayKeysProjection = defineProjection({
  name: 'gateway_keys',
  tables: ['gateway_keys'],
  canHandle: ['gateway_key_rotated'],
  async apply(rows, event) {
    if (event.type !== 'gateway_key_rotated') return;
    const d = event.data;
    rows.insert('gateway_keys', { facility_id: d.facilityId, key_hash: d.keyHash, key_prefix: d.keyPrefix, created_at: event.metadata.occurredAt });
  },
});
