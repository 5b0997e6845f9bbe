import { z } from 'zod';
import { Id } from './fields.ts';

export const ReportsQuery = z.strictObject({ facilityId: Id.optional() });
export type ReportsQuery = z.input<typeof ReportsQuery>;

/** Receivables by days past their due date; invoices not yet due count as 0–30. */
export const AgingBucket = z.enum(['0-30', '31-60', '61-90', '90+']);
export type AgingBucket = z.infer<typeof AgingBucket>;

/** YYYY-MM */
const Month = z.string().regex(/^\d{4}-\d{2}$/);

export const ReportsOverview = z.object({
  /** The last 12 calendar months (UTC), oldest first, the current month so far last. */
  revenueByMonth: z.array(z.object({ month: Month, revenue: z.string(), payments: z.number().int() })),
  /** Each of those months' occupancy at its end (now, for the current month); rate null without units. */
  occupancyByMonth: z.array(
    z.object({
      month: Month,
      occupiedUnits: z.number().int(),
      totalUnits: z.number().int(),
      occupancyRate: z.number().nullable(),
      moveIns: z.number().int(),
      moveOuts: z.number().int(),
    }),
  ),
  agingReceivables: z.array(z.object({ bucket: AgingBucket, amount: z.string(), invoices: z.number().int() })),
  /** Average days a unit stood for rent before the lease that filled it, over the fills of those 12 months; null without fills. */
  daysToFill: z.number().nullable(),
  unitsFilled: z.number().int(),
  /** Share of the invoices that fell due in those 12 months (sent, overdue or paid) that are paid, in percent; null when none fell due. */
  paymentSuccessRate: z.number().nullable(),
  invoicesDue: z.number().int(),
});
export type ReportsOverview = z.infer<typeof ReportsOverview>;

/** The reports a button downloads as CSV: GET /api/reports/<kind>.csv */
export const reportDownloads = [
  { kind: 'rent-roll', title: 'Rent Roll' },
  { kind: 'aging', title: 'Aging Receivables' },
  { kind: 'occupancy', title: 'Occupancy' },
  { kind: 'revenue', title: 'Revenue' },
] as const;
export type ReportKind = (typeof reportDownloads)[number]['kind'];
