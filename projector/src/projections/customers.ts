import { fromCents, toCents } from '@storage/contracts/money';
import { defineProjection } from '../projection.ts';
import type { RowOf } from '../read-model-tables.ts';

/** What the customer search box matches, lower-cased. */
function searchText(c: Pick<RowOf<'customers'>, 'first_name' | 'last_name' | 'email' | 'phone'>): string {
  return [c.first_name, c.last_name, `${c.first_name} ${c.last_name}`, c.email, c.phone ?? ''].join(' ').toLowerCase();
}

export const customersProjection = defineProjection({
  name: 'customers',
  tables: ['customers', 'customer_notes'],
  canHandle: [
    'account_credit_applied',
    'account_credit_refunded',
    'account_credited',
    'customer_added',
    'customer_archived',
    'customer_note_added',
    'customer_restored',
    'customer_standing_changed',
    'customer_updated',
    'desk_payment_received',
    'portal_payment_received',
  ],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'customer_added': {
        const d = event.data;
        const customer = {
          id: d.customerId,
          first_name: d.firstName,
          last_name: d.lastName,
          email: d.email,
          phone: d.phone,
          address: d.address,
          emergency_contact: d.emergencyContact,
          emergency_phone: d.emergencyPhone,
          status: d.status,
          facility_id: d.facilityId,
          archived: false,
          credit_balance: '0.00',
          created_at: at,
          updated_at: at,
        };
        rows.insert('customers', { ...customer, search_text: searchText(customer) });
        return;
      }
      case 'customer_updated': {
        const before = await rows.get('customers', event.data.customerId);
        if (!before) return;
        const c = event.data.changes;
        const after = {
          ...before,
          ...(c.firstName !== undefined && { first_name: c.firstName }),
          ...(c.lastName !== undefined && { last_name: c.lastName }),
          ...(c.email !== undefined && { email: c.email }),
          ...('phone' in c && { phone: c.phone ?? null }),
          ...('address' in c && { address: c.address ?? null }),
          ...('emergencyContact' in c && { emergency_contact: c.emergencyContact ?? null }),
          ...('emergencyPhone' in c && { emergency_phone: c.emergencyPhone ?? null }),
          ...(c.status !== undefined && { status: c.status }),
          ...('facilityId' in c && { facility_id: c.facilityId ?? null }),
          updated_at: at,
        };
        rows.insert('customers', { ...after, search_text: searchText(after) });
        return;
      }
      case 'account_credited':
      case 'desk_payment_received':
      case 'portal_payment_received':
      case 'account_credit_applied':
      case 'account_credit_refunded': {
        const customer = await rows.get('customers', event.data.customerId);
        if (!customer) return;
        const change =
          event.type === 'desk_payment_received' || event.type === 'portal_payment_received'
            ? toCents(event.data.credit)
            : toCents(event.data.amount) * (event.type === 'account_credited' ? 1n : -1n);
        await rows.update('customers', customer.id, { credit_balance: fromCents(toCents(customer.credit_balance) + change), updated_at: at });
        return;
      }
      case 'customer_standing_changed':
        await rows.update('customers', event.data.customerId, { status: event.data.status, updated_at: at });
        return;
      case 'customer_note_added': {
        const { actor } = event.metadata;
        rows.insert('customer_notes', {
          id: event.data.noteId,
          customer_id: event.data.customerId,
          text: event.data.text,
          author_id: actor.type === 'staff' ? actor.id : null,
          created_at: at,
        });
        return;
      }
      case 'customer_archived':
        await rows.update('customers', event.data.customerId, { archived: true, updated_at: at });
        return;
      case 'customer_restored':
        await rows.update('customers', event.data.customerId, { archived: false, updated_at: at });
        return;
    }
  },
});
