import { sql } from 'slonik';
import type { Projection } from '../projection.ts';

export const leasesProjection: Projection = {
  name: 'leases',
  tables: ['leases'],
  async apply(tx, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'lease_started': {
        const d = event.data;
        await tx.query(sql.unsafe`
          INSERT INTO leases (id, customer_id, unit_id, start_date, monthly_rate, deposit_amount, is_active, created_at, updated_at)
          VALUES (${d.leaseId}, ${d.customerId}, ${d.unitId}, ${d.startDate}, ${d.monthlyRate}, ${d.depositAmount}, true, ${at}, ${at})`);
        return;
      }
      case 'lease_ended':
        await tx.query(sql.unsafe`
          UPDATE leases SET end_date = ${event.data.endDate}, is_active = false, updated_at = ${at} WHERE id = ${event.data.leaseId}`);
        return;
    }
  },
};
