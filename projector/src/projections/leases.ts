import { defineProjection } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';
import type { RowOf } from '../read-model-tables.ts';

/** What the lease search box matches: the tenant's name and email and the unit number, lower-cased. */
async function searchText(rows: ReadModelSession, lease: RowOf<'leases'>): Promise<string> {
  const [customer, unit] = [await rows.get('customers', lease.customer_id), await rows.get('units', lease.unit_id)];
  if (!customer || !unit) return lease.search_text;
  return [customer.first_name, customer.last_name, customer.email, unit.unit_number].join(' ').toLowerCase();
}

export const leasesProjection = defineProjection({
  name: 'leases',
  tables: ['leases', 'lease_rent_changes'],
  reads: ['customers', 'units'],
  canHandle: [
    'customer_updated',
    'lease_ended',
    'lease_move_out_cancelled',
    'lease_move_out_scheduled',
    'lease_promotion_applied',
    'lease_rent_billed',
    'lease_rent_change_cancelled',
    'lease_rent_change_scheduled',
    'lease_signed',
    'lease_started',
  ],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'lease_started': {
        const d = event.data;
        const lease = {
          id: d.leaseId,
          customer_id: d.customerId,
          unit_id: d.unitId,
          start_date: d.startDate,
          end_date: null,
          monthly_rate: d.monthlyRate,
          deposit_amount: d.depositAmount,
          is_active: true,
          billed_through: null,
          move_out_date: null,
          signed_at: null,
          signer_name: null,
          signature_channel: null,
          promotion_name: null,
          search_text: '',
          created_at: at,
          updated_at: at,
        };
        rows.insert('leases', { ...lease, search_text: await searchText(rows, lease) });
        return;
      }
      case 'lease_rent_billed':
        await rows.update('leases', event.data.leaseId, { billed_through: event.data.periodEnd, updated_at: at });
        return;
      case 'lease_ended': {
        // A scheduled move-out stays named when it is the day the lease ended (the billing day finishes it from there); another is void.
        const moveOut = (await rows.get('leases', event.data.leaseId))?.move_out_date ?? null;
        const kept = moveOut === event.data.endDate ? moveOut : null;
        await rows.update('leases', event.data.leaseId, { end_date: event.data.endDate, is_active: false, move_out_date: kept, updated_at: at });
        return;
      }
      case 'lease_move_out_scheduled':
        await rows.update('leases', event.data.leaseId, { move_out_date: event.data.endDate, updated_at: at });
        return;
      case 'lease_promotion_applied':
        // Appended with lease_started, in the move-in's own append: the lease's row is there.
        await rows.update('leases', event.data.leaseId, { promotion_name: event.data.promotion.name, updated_at: at });
        return;
      case 'lease_move_out_cancelled':
        await rows.update('leases', event.data.leaseId, { move_out_date: null, updated_at: at });
        return;
      case 'lease_signed': {
        // The newest signature: a changed agreement signed again replaces the one before.
        const { signedAt, signerName, channel } = event.data;
        await rows.update('leases', event.data.leaseId, { signed_at: signedAt, signer_name: signerName, signature_channel: channel, updated_at: at });
        return;
      }
      case 'lease_rent_change_scheduled': {
        const d = event.data;
        const actor = event.metadata.actor;
        rows.insert('lease_rent_changes', {
          id: d.changeId,
          lease_id: d.leaseId,
          customer_id: d.customerId,
          current_rate: d.currentRate,
          new_rate: d.newRate,
          notice_date: d.noticeDate,
          effective_date: d.effectiveDate,
          reason: d.reason,
          cancelled: false,
          cancel_reason: null,
          created_by: actor.type === 'staff' ? actor.id : null,
          created_at: at,
          updated_at: at,
        });
        return;
      }
      case 'lease_rent_change_cancelled':
        await rows.update('lease_rent_changes', event.data.changeId, { cancelled: true, cancel_reason: event.data.reason, updated_at: at });
        return;
      case 'customer_updated': {
        // The customers projection, earlier in the order, has already applied the change.
        const { changes } = event.data;
        if (changes.firstName === undefined && changes.lastName === undefined && changes.email === undefined) return;
        for (const lease of await rows.find('leases', 'customer_id', event.data.customerId)) {
          await rows.update('leases', lease.id, { search_text: await searchText(rows, lease) });
        }
        return;
      }
    }
  },
});
