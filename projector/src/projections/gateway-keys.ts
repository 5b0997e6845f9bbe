import { sql } from 'slonik';
import type { Projection } from '../projection.ts';

// Each facility's current lock gateway key, by hash: the heartbeat route finds the facility a
// key belongs to here. A rotation replaces the row, so the old hash no longer finds it.
export const gatewayKeysProjection: Projection = {
  name: 'gateway_keys',
  tables: ['gateway_keys'],
  async apply(tx, event) {
    if (event.type !== 'gateway_key_rotated') return;
    const d = event.data;
    await tx.query(sql.unsafe`
      INSERT INTO gateway_keys (facility_id, key_hash, key_prefix, created_at)
      VALUES (${d.facilityId}, ${d.keyHash}, ${d.keyPrefix}, ${event.metadata.occurredAt})
      ON CONFLICT (facility_id) DO UPDATE SET key_hash = EXCLUDED.key_hash, key_prefix = EXCLUDED.key_prefix, created_at = EXCLUDED.created_at`);
  },
};
