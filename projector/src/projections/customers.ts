import { sql } from 'slonik';
import type { Projection } from '../projection.ts';

function searchText(c: { firstName: string; lastName: string; email: string; phone: string | null }): string {
  return [c.firstName, c.lastName, `${c.firstName} ${c.lastName}`, c.email, c.phone ?? ''].join(' ').toLowerCase();
}

export const customersProjection: Projection = {
  name: 'customers',
  tables: ['customers'],
  async apply(tx, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'customer_added': {
        const d = event.data;
        await tx.query(sql.unsafe`
          INSERT INTO customers (id, first_name, last_name, email, phone, address, emergency_contact, emergency_phone,
                                 status, facility_id, search_text, created_at, updated_at)
          VALUES (${d.customerId}, ${d.firstName}, ${d.lastName}, ${d.email}, ${d.phone}, ${d.address}, ${d.emergencyContact},
                  ${d.emergencyPhone}, ${d.status}, ${d.facilityId}, ${searchText(d)}, ${at}, ${at})`);
        return;
      }
      case 'customer_updated': {
        const c = event.data.changes;
        const has = (k: keyof typeof c) => k in c;
        await tx.query(sql.unsafe`
          UPDATE customers SET
            first_name = COALESCE(${c.firstName ?? null}, first_name),
            last_name = COALESCE(${c.lastName ?? null}, last_name),
            email = COALESCE(${c.email ?? null}, email),
            phone = CASE WHEN ${has('phone')} THEN ${c.phone ?? null} ELSE phone END,
            address = CASE WHEN ${has('address')} THEN ${c.address ?? null} ELSE address END,
            emergency_contact = CASE WHEN ${has('emergencyContact')} THEN ${c.emergencyContact ?? null} ELSE emergency_contact END,
            emergency_phone = CASE WHEN ${has('emergencyPhone')} THEN ${c.emergencyPhone ?? null} ELSE emergency_phone END,
            status = COALESCE(${c.status ?? null}, status),
            facility_id = CASE WHEN ${has('facilityId')} THEN ${c.facilityId ?? null}::uuid ELSE facility_id END,
            updated_at = ${at}
          WHERE id = ${event.data.customerId}`);
        await tx.query(sql.unsafe`
          UPDATE customers SET search_text = lower(concat_ws(' ', first_name, last_name, first_name || ' ' || last_name, email, coalesce(phone, '')))
          WHERE id = ${event.data.customerId}`);
        return;
      }
      case 'customer_archived':
        await tx.query(sql.unsafe`UPDATE customers SET archived = true, updated_at = ${at} WHERE id = ${event.data.customerId}`);
        return;
    }
  },
};
