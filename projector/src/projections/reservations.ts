import { sql } from 'slonik';
import type { Projection } from '../projection.ts';

export const reservationsProjection: Projection = {
  name: 'reservations',
  tables: ['reservations', 'waitlist_entries'],
  async apply(tx, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'reservation_submitted': {
        const d = event.data;
        await tx.query(sql.unsafe`
          INSERT INTO reservations (id, unit_id, customer_id, move_in_date, special_requests, status, submitted_at, updated_at)
          VALUES (${d.reservationId}, ${d.unitId}, ${d.customerId}, ${d.moveInDate}, ${d.specialRequests}, 'submitted', ${at}, ${at})`);
        return;
      }
      case 'reservation_converted':
        await tx.query(sql.unsafe`
          UPDATE reservations SET status = 'converted', lease_id = ${event.data.leaseId}, updated_at = ${at} WHERE id = ${event.data.reservationId}`);
        return;
      case 'reservation_cancelled':
      case 'reservation_expired': {
        const status = event.type === 'reservation_cancelled' ? 'cancelled' : 'expired';
        await tx.query(sql.unsafe`UPDATE reservations SET status = ${status}, updated_at = ${at} WHERE id = ${event.data.reservationId}`);
        return;
      }
      case 'waitlist_joined': {
        const d = event.data;
        await tx.query(sql.unsafe`
          INSERT INTO waitlist_entries (id, first_name, last_name, email, phone, size, facility_id, joined_at)
          VALUES (${d.entryId}, ${d.firstName}, ${d.lastName}, ${d.email}, ${d.phone}, ${d.size}, ${d.facilityId}, ${at})`);
        return;
      }
    }
  },
};
