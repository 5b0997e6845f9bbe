import { defineProjection } from '../projection.ts';

/** The billing-run history staff read: one row per run of a facility's day. */
export const billingRunsProjection = defineProjection({
  name: 'billing_runs',
  tables: ['billing_runs'],
  canHandle: ['billing_run_completed'],
  async apply(rows, event) {
    if (event.type !== 'billing_run_completed') return;
    const d = event.data;
    rows.insert('billing_runs', {
      id: d.runId,
      facility_id: d.facilityId,
      billing_date: d.billingDate,
      ran_at: event.metadata.occurredAt,
      invoices_issued: d.invoicesIssued,
      late_fees_charged: d.lateFeesCharged,
      invoices_overdue: d.invoicesOverdue,
      skipped: d.skipped,
    });
  },
});
