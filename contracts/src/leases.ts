import { z } from 'zod';
import { DeskPaymentMethod, UnitSize } from './enums.ts';
import { Id, IsoDate, IsoDateTime, OptionalText, SearchText } from './fields.ts';
import { LeaseSignatureSummary } from './lease-signatures.ts';
import { DepositAmount, PositiveMonthlyRate } from './money.ts';
import { pagingFields } from './paging.ts';
import { listSorting } from './sorting.ts';

export const LeaseStatusFilter = z.enum(['active', 'inactive']);
export type LeaseStatusFilter = z.infer<typeof LeaseStatusFilter>;

/** Leases whose agreement is signed electronically, or awaits the renter's signature. */
export const LeaseSignatureFilter = z.enum(['awaiting', 'signed']);
export type LeaseSignatureFilter = z.infer<typeof LeaseSignatureFilter>;

/** What narrows the lease list and its CSV export: a search over the tenant's name and email and the unit number. */
export const LeasesFilter = z.strictObject({
  search: SearchText,
  facilityId: Id.optional(),
  /** One tenant's leases (the invoice form offers them). */
  customerId: Id.optional(),
  status: LeaseStatusFilter.optional(),
  signature: LeaseSignatureFilter.optional(),
});
export type LeasesFilter = z.input<typeof LeasesFilter>;

/** Customer is the tenant's last name, then first name; unit the unit number; newest first unless asked otherwise. */
export const leaseSorting = listSorting({ createdAt: 'desc', startDate: 'desc', customer: 'asc', unit: 'asc', monthlyRate: 'desc' }, 'createdAt');

export const ListLeasesQuery = LeasesFilter.extend({ ...leaseSorting.fields, ...pagingFields });
export type ListLeasesQuery = z.input<typeof ListLeasesQuery>;

/** The tabs' counts: the list's search and facility, every status. */
export const LeaseCountsQuery = LeasesFilter.omit({ status: true });
export type LeaseCountsQuery = z.input<typeof LeaseCountsQuery>;

export const LeaseCounts = z.object({ all: z.number().int(), active: z.number().int(), inactive: z.number().int() });
export type LeaseCounts = z.infer<typeof LeaseCounts>;

/** A lease's first day: billing runs a few months past it, so not in the calendar's last year. */
export const LeaseStartDate = IsoDate.refine((day) => day < '9999-01-01', 'must be a date before 9999-01-01');

/** Move-in: the customer takes the unit from the start date. */
export const StartLeaseRequest = z.strictObject({
  customerId: Id,
  unitId: Id,
  monthlyRate: PositiveMonthlyRate,
  depositAmount: DepositAmount.nullish().transform((v) => v ?? null),
  startDate: LeaseStartDate,
  /** A protection plan of the unit's facility (absent or null: none). */
  protectionPlanId: Id.nullish().transform((v) => v ?? null),
  /** A promotion the business offers at the desk for this unit and day (absent or null: none). */
  promotionId: Id.nullish().transform((v) => v ?? null),
});
export type StartLeaseRequest = z.input<typeof StartLeaseRequest>;

/**
 * Move-out: the lease ends and its unit is available again; on a day after the facility's today,
 * it is scheduled and happens on that day.
 * deposit: what becomes of the deposit the renter paid: handed back ('return', by depositMethod,
 * a check unless said) or applied to what they still owe ('apply'); absent: it is not touched.
 */
export const EndLeaseRequest = z.strictObject({
  endDate: IsoDate,
  deposit: z.enum(['return', 'apply']).optional(),
  depositMethod: DeskPaymentMethod.optional(),
});
export type EndLeaseRequest = z.input<typeof EndLeaseRequest>;

/** A move-out scheduled on a lease: its day, and the deposit choice it settles with (null: not touched). */
export const ScheduledMoveOut = z.object({
  endDate: IsoDate,
  /** The facility's date it was scheduled on. */
  scheduledOn: IsoDate,
  deposit: z.enum(['return', 'apply']).nullable(),
  depositMethod: DeskPaymentMethod.nullable(),
});
export type ScheduledMoveOut = z.infer<typeof ScheduledMoveOut>;

/** The lease's move-out: today in its facility's zone (a later end date schedules it), and the one scheduled (null: none). */
export const LeaseMoveOut = z.object({ today: IsoDate, scheduled: ScheduledMoveOut.nullable() });
export type LeaseMoveOut = z.infer<typeof LeaseMoveOut>;

/** Calls off a scheduled move-out; reason optional. */
export const CancelMoveOutRequest = z.strictObject({ reason: OptionalText(200) }).prefault({});
export type CancelMoveOutRequest = z.input<typeof CancelMoveOutRequest>;

export const LeaseInvoiceSummary = z.object({ paid: z.number().int(), overdue: z.number().int(), total: z.number().int() });
export type LeaseInvoiceSummary = z.infer<typeof LeaseInvoiceSummary>;

export const Lease = z.object({
  id: Id,
  customer: z.object({ id: Id, firstName: z.string(), lastName: z.string(), email: z.string(), phone: z.string().nullable() }),
  unit: z.object({ id: Id, unitNumber: z.string(), size: UnitSize, building: z.string(), facilityId: Id.nullable() }),
  isActive: z.boolean(),
  /** The rate in effect today: the newest rent change that took effect, else the rate the lease started with. */
  monthlyRate: z.string(),
  depositAmount: z.string().nullable(),
  startDate: IsoDate,
  endDate: IsoDate.nullable(),
  /** The day a scheduled move-out ends this active lease (null: none scheduled). */
  moveOutDate: IsoDate.nullable(),
  createdAt: IsoDateTime,
  invoiceSummary: LeaseInvoiceSummary,
  /** The newest signature of the agreement (null: awaiting the renter's signature). Absent in fixtures written before signatures. */
  signature: LeaseSignatureSummary.nullable().optional(),
});
export type Lease = z.infer<typeof Lease>;

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The reader's time zone, for the document's generated time. */
export const LeaseDocumentQuery = z.strictObject({
  timeZone: z.string().max(64, 'must be at most 64 characters').refine(isTimeZone, 'must be a time zone, e.g. America/Chicago').default('UTC'),
});
export type LeaseDocumentQuery = z.input<typeof LeaseDocumentQuery>;

/** The lease agreement as one document, written out by the server for the screen and for the PDF alike. */
export const LeaseDocument = z.object({
  leaseId: Id,
  title: z.string(),
  sections: z.array(z.object({ title: z.string(), rows: z.array(z.object({ label: z.string(), value: z.string() })) })),
  termsAndConditions: z.array(z.string()),
  signatures: z.array(z.object({ party: z.string(), name: z.string() })),
  generatedAt: IsoDateTime,
  /** generatedAt as the reader reads it, in the time zone asked for. */
  generatedAtText: z.string(),
});
export type LeaseDocument = z.infer<typeof LeaseDocument>;
