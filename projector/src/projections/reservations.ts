import { defineProjection } from '../projection.ts';

export const reservationsProjection = defineProjection({
  name: 'reservations',
  tables: ['reservations', 'waitlist_entries'],
  canHandle: [
    'reservation_cancelled',
    'reservation_checkout_refunded',
    'reservation_checkout_started',
    'reservation_conversion_abandoned',
    'reservation_conversion_started',
    'reservation_converted',
    'reservation_expired',
    'reservation_submitted',
    'waitlist_joined',
  ],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'reservation_submitted': {
        const d = event.data;
        rows.insert('reservations', {
          id: d.reservationId,
          unit_id: d.unitId,
          customer_id: d.customerId,
          contact: d.contact,
          move_in_date: d.moveInDate,
          special_requests: d.specialRequests,
          status: 'submitted',
          lease_id: null,
          online_checkout: null,
          online_checkout_at: null,
          submitted_at: at,
          updated_at: at,
        });
        return;
      }
      // Where the renter's online payment stands, for staff about to move them in at the desk.
      case 'reservation_checkout_started':
      case 'reservation_checkout_refunded':
        await rows.update('reservations', event.data.reservationId, {
          online_checkout: event.type === 'reservation_checkout_started' ? 'paying' : 'refunded',
          online_checkout_at: at,
          updated_at: at,
        });
        return;
      case 'reservation_conversion_started':
        await rows.update('reservations', event.data.reservationId, { status: 'converting', updated_at: at });
        return;
      case 'reservation_conversion_abandoned':
        await rows.update('reservations', event.data.reservationId, { status: 'submitted', updated_at: at });
        return;
      case 'reservation_converted':
        await rows.update('reservations', event.data.reservationId, { status: 'converted', lease_id: event.data.leaseId, updated_at: at });
        return;
      case 'reservation_cancelled':
      case 'reservation_expired':
        await rows.update('reservations', event.data.reservationId, {
          status: event.type === 'reservation_cancelled' ? 'cancelled' : 'expired',
          updated_at: at,
        });
        return;
      case 'waitlist_joined': {
        const d = event.data;
        rows.insert('waitlist_entries', {
          id: d.entryId,
          first_name: d.firstName,
          last_name: d.lastName,
          email: d.email,
          phone: d.phone,
          size: d.size,
          facility_id: d.facilityId,
          joined_at: at,
        });
        return;
      }
    }
  },
});
