import { defineProjection } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';
import type { RowOf } from '../read-model-tables.ts';

/** The renter's row, made the first time the schedule acts on them. */
async function change(rows: ReadModelSession, customerId: string, at: string, changes: Partial<RowOf<'customer_delinquency'>>) {
  const row = (await rows.get('customer_delinquency', customerId)) ?? {
    customer_id: customerId,
    facility_id: (await rows.get('customers', customerId))?.facility_id ?? null,
    steps_since_clear: 0,
    last_step_kind: null,
    last_step_date: null,
    paused_until: null,
    pause_reason: null,
    updated_at: at,
  };
  rows.insert('customer_delinquency', { ...row, ...changes, updated_at: at });
}

/** Where each renter is in the delinquency schedule (the billing day nominates delinquent renters from it). */
export const delinquencyProjection = defineProjection({
  name: 'delinquency',
  tables: ['customer_delinquency'],
  reads: ['customers'],
  canHandle: ['customer_updated', 'delinquency_cleared', 'delinquency_paused', 'delinquency_resumed', 'delinquency_step_taken'],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'delinquency_step_taken': {
        const d = event.data;
        const before = await rows.get('customer_delinquency', d.customerId);
        await change(rows, d.customerId, at, { steps_since_clear: (before?.steps_since_clear ?? 0) + 1, last_step_kind: d.kind, last_step_date: d.date });
        return;
      }
      case 'delinquency_cleared':
        await change(rows, event.data.customerId, at, { steps_since_clear: 0 });
        return;
      case 'delinquency_paused':
        await change(rows, event.data.customerId, at, { paused_until: event.data.until, pause_reason: event.data.reason });
        return;
      case 'delinquency_resumed':
        await change(rows, event.data.customerId, at, { paused_until: null, pause_reason: null });
        return;
      case 'customer_updated': {
        const facilityId = event.data.changes.facilityId;
        const row = facilityId !== undefined ? await rows.get('customer_delinquency', event.data.customerId) : null;
        if (row && facilityId !== undefined) rows.insert('customer_delinquency', { ...row, facility_id: facilityId, updated_at: at });
        return;
      }
    }
  },
});
