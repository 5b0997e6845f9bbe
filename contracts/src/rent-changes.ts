import { z } from 'zod';
import { Id, IsoDate, IsoDateTime, OptionalText } from './fields.ts';
import { PositiveMonthlyRate, toCents } from './money.ts';

// Rent changes (issue 13): a new monthly rate for a lease from an effective date, no sooner than
// the notice period (the billing setting rentChangeNoticeDays) after the notice, which is sent
// the day it is scheduled. One at a time per lease; in bulk for a facility's long-standing rates.

/** Schedules a change on one lease. */
export const RentChangeRequest = z.strictObject({
  newRate: PositiveMonthlyRate,
  effectiveDate: IsoDate,
  reason: OptionalText(200),
});
export type RentChangeRequest = z.input<typeof RentChangeRequest>;

/** Cancels a change that has not taken effect; reason absent: "Cancelled by staff". */
export const CancelRentChangeRequest = z.strictObject({ reason: OptionalText(200) }).prefault({});
export type CancelRentChangeRequest = z.input<typeof CancelRentChangeRequest>;

/** pending: its effective date is still to come (in the facility's zone); in_effect: it came. */
export const RentChangeStatus = z.enum(['pending', 'in_effect', 'cancelled']);
export type RentChangeStatus = z.infer<typeof RentChangeStatus>;

export const RentChange = z.object({
  id: Id,
  leaseId: Id,
  customerId: Id,
  currentRate: z.string(),
  newRate: z.string(),
  noticeDate: IsoDate,
  effectiveDate: IsoDate,
  reason: z.string().nullable(),
  status: RentChangeStatus,
  cancelReason: z.string().nullable(),
  createdAt: IsoDateTime,
});
export type RentChange = z.infer<typeof RentChange>;

/** The first effective date a change noticed today may have (today and the notice days of the facility's billing settings). */
export const RentChangeTerms = z.object({ today: IsoDate, noticeDays: z.number().int(), earliestEffectiveDate: IsoDate });
export type RentChangeTerms = z.infer<typeof RentChangeTerms>;

export const RentChangeTermsQuery = z.strictObject({ facilityId: Id });
export type RentChangeTermsQuery = z.input<typeof RentChangeTermsQuery>;

/** A lease's changes, newest effective date first, and the terms of a new one. */
export const LeaseRentChanges = z.object({ terms: RentChangeTerms, changes: z.array(RentChange) });
export type LeaseRentChanges = z.infer<typeof LeaseRentChanges>;

export const RentAdjustmentKind = z.enum(['percent', 'amount']);
export type RentAdjustmentKind = z.infer<typeof RentAdjustmentKind>;

/**
 * Every active lease of the facility that has paid the same rate for at least minMonthsAtRate
 * whole months (since it started or its last change took effect), by a percentage (value: 5 or
 * 4.5, at most 100) or an amount (value: 10.00), each new rate rounded half up to the cent.
 */
export const BulkRentChangeRequest = z
  .strictObject({
    facilityId: Id,
    minMonthsAtRate: z.number().int('must be a whole number').min(0, 'must be at least 0').max(600, 'must be at most 600'),
    kind: RentAdjustmentKind,
    value: PositiveMonthlyRate,
    effectiveDate: IsoDate,
    reason: OptionalText(200),
  })
  .superRefine((body, ctx) => {
    // Runs even when a field failed its own check: only a value that is an amount is compared.
    const value: unknown = body.value;
    if (body.kind !== 'percent' || typeof value !== 'string' || !/^\d{1,8}(\.\d{1,2})?$/.test(value)) return;
    if (toCents(value) > 10_000n) ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be at most 100 (percent)' });
  });
export type BulkRentChangeRequest = z.input<typeof BulkRentChangeRequest>;

const Party = z.object({
  customer: z.object({ id: Id, firstName: z.string(), lastName: z.string() }),
  unit: z.object({ id: Id, unitNumber: z.string() }),
});

export const PlannedRentChange = Party.extend({
  leaseId: Id,
  currentRate: z.string(),
  newRate: z.string(),
  monthsAtRate: z.number().int(),
  /** The change scheduled (bulk); null in a preview. */
  changeId: Id.nullable(),
});
export type PlannedRentChange = z.infer<typeof PlannedRentChange>;

export const SkippedRentChange = Party.extend({ leaseId: Id, currentRate: z.string(), reason: z.string() });
export type SkippedRentChange = z.infer<typeof SkippedRentChange>;

/** Who and how much: the preview, and what a bulk request did (the same leases, with their change ids). */
export const RentChangePlan = z.object({
  facilityId: Id,
  effectiveDate: IsoDate,
  noticeDate: IsoDate,
  leases: z.array(PlannedRentChange),
  /** Leases that qualify but were left alone (a change pending already, or refused), with why. */
  skipped: z.array(SkippedRentChange),
  totals: z.object({ leases: z.number().int(), currentMonthly: z.string(), newMonthly: z.string(), difference: z.string() }),
});
export type RentChangePlan = z.infer<typeof RentChangePlan>;
