import { sql, type DatabaseTransactionConnection, type FragmentSqlToken } from 'slonik';
import type { Projection } from '../projection.ts';

/** What the lease search box matches: the tenant's name and email and the unit number, lower-cased. */
function refreshSearchText(tx: DatabaseTransactionConnection, which: FragmentSqlToken) {
  return tx.query(sql.unsafe`
    UPDATE leases l SET search_text = lower(concat_ws(' ', c.first_name, c.last_name, c.email, u.unit_number))
    FROM customers c, units u
    WHERE c.id = l.customer_id AND u.id = l.unit_id AND ${which}`);
}

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
        await refreshSearchText(tx, sql.fragment`l.id = ${d.leaseId}`);
        return;
      }
      case 'lease_ended':
        await tx.query(sql.unsafe`
          UPDATE leases SET end_date = ${event.data.endDate}, is_active = false, updated_at = ${at} WHERE id = ${event.data.leaseId}`);
        return;
      case 'customer_updated':
        // The customers projection, earlier in the order, has already applied the change.
        if (event.data.changes.firstName !== undefined || event.data.changes.lastName !== undefined || event.data.changes.email !== undefined) {
          await refreshSearchText(tx, sql.fragment`l.customer_id = ${event.data.customerId}`);
        }
        return;
    }
  },
};
