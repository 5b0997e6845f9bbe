import { z } from 'zod';
import { DelinquencyStepKind } from './enums.ts';
import { Id, IsoDate, RequiredText } from './fields.ts';
import { NonNegativePaymentAmount } from './money.ts';

/**
 * One rule of the delinquency schedule: on `day` days after an invoice's due date (facility time
 * zone), while the renter's past-due balance is above `threshold`, the step fires once for that
 * invoice. A payment that brings the past-due balance to the lockout step's threshold or below
 * restores access.
 */
export const DelinquencyStep = z.object({
  kind: DelinquencyStepKind,
  day: z.number().int().min(1).max(365),
  threshold: z.string().regex(/^\d+\.\d{2}$/),
});
export type DelinquencyStep = z.infer<typeof DelinquencyStep>;

/** The schedule when no owner has set one: the issue's example (the late fee comes from the billing settings). */
export const defaultDelinquencySteps: readonly DelinquencyStep[] = [
  { kind: 'late_notice', day: 5, threshold: '0.00' },
  { kind: 'lockout', day: 15, threshold: '0.00' },
  { kind: 'pre_lien_notice', day: 30, threshold: '0.00' },
  { kind: 'lien', day: 45, threshold: '0.00' },
  { kind: 'auction_scheduled', day: 60, threshold: '0.00' },
];

// --- The API's words (issue 13): the schedule as settings, pause/resume, a renter's timeline ---

/** One step as an owner types it: the threshold is any non-negative amount ("50" is 50.00). */
export const DelinquencyStepInput = z.strictObject({
  kind: DelinquencyStepKind,
  day: z.number().int('must be a whole number').min(1, 'must be at least 1').max(365, 'must be at most 365'),
  threshold: NonNegativePaymentAmount,
});

/** A schedule: each kind at most once, the days strictly increasing in list order (an empty list: no steps). */
export const DelinquencySchedule = z
  .array(DelinquencyStepInput)
  .max(DelinquencyStepKind.options.length)
  .superRefine((steps, ctx) => {
    const seen = new Set<string>();
    steps.forEach((step, i) => {
      if (seen.has(step.kind)) ctx.addIssue({ code: 'custom', path: [i, 'kind'], message: `${step.kind} is already in the schedule` });
      seen.add(step.kind);
      const before = steps[i - 1];
      if (before && step.day <= before.day) ctx.addIssue({ code: 'custom', path: [i, 'day'], message: `must be after the step before it (day ${before.day})` });
    });
  });

/** GET /api/settings/delinquency: the business's schedule and (with facilityId) that facility's own. */
export const DelinquencySettingsQuery = z.strictObject({ facilityId: Id.optional() });
export type DelinquencySettingsQuery = z.input<typeof DelinquencySettingsQuery>;

export const DelinquencySettingsAnswer = z.object({
  /** The business's own schedule; null: the product's default. */
  business: z.array(DelinquencyStep).nullable(),
  /** The facility's own schedule; null: it follows the business's (always null without facilityId). */
  facility: z.array(DelinquencyStep).nullable(),
  /** The schedule that applies: the facility's own, else the business's, else the default. */
  effective: z.array(DelinquencyStep),
});
export type DelinquencySettingsAnswer = z.infer<typeof DelinquencySettingsAnswer>;

/** PUT /api/settings/delinquency: facilityId null saves the business's; steps null follows the business's (or the default) again. */
export const UpdateDelinquencySettingsRequest = z.strictObject({
  facilityId: Id.nullable(),
  steps: DelinquencySchedule.nullable(),
});
export type UpdateDelinquencySettingsRequest = z.input<typeof UpdateDelinquencySettingsRequest>;

/** The schedule that applies: a facility's own, else the business's, else the default. */
export function effectiveDelinquencySteps(
  business: readonly DelinquencyStep[] | null,
  facility: readonly DelinquencyStep[] | null,
): readonly DelinquencyStep[] {
  return facility ?? business ?? defaultDelinquencySteps;
}

/** What clears a renter: their past-due balance at or below the lockout's threshold (no lockout in the schedule: 0.00). */
export function clearingThreshold(steps: readonly DelinquencyStep[]): string {
  return steps.find((s) => s.kind === 'lockout')?.threshold ?? '0.00';
}

/** POST /api/customers/:id/delinquency/pause: no step fires until `until` has passed (a promise to pay). */
export const PauseDelinquencyRequest = z.strictObject({ until: IsoDate, reason: RequiredText(200) });
export type PauseDelinquencyRequest = z.input<typeof PauseDelinquencyRequest>;

/** POST /api/customers/:id/delinquency/resume: the pause ends today. */
export const ResumeDelinquencyRequest = z.strictObject({ reason: RequiredText(200) });
export type ResumeDelinquencyRequest = z.input<typeof ResumeDelinquencyRequest>;

/** The longest pause staff may give, in days after today. */
export const MAX_PAUSE_DAYS = 90;

export const DelinquencyStatus = z.enum(['current', 'delinquent', 'paused']);
export type DelinquencyStatus = z.infer<typeof DelinquencyStatus>;

export const DelinquencyTimelineEntry = z.object({
  /** The event's id. */
  id: z.string(),
  type: z.enum(['step_taken', 'cleared', 'paused', 'resumed']),
  /** The facility's date it happened (a pause: the day it was given). */
  date: IsoDate,
  /** Step: its kind and label, the day of the rule, the invoice it counts from, the past-due balance then. */
  kind: DelinquencyStepKind.nullable(),
  label: z.string(),
  day: z.number().nullable(),
  invoiceId: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  pastDue: z.string().nullable(),
  /** A clear, pause or resume: why; a pause: until when. */
  reason: z.string().nullable(),
  until: IsoDate.nullable(),
  recordedAt: z.string(),
});
export type DelinquencyTimelineEntry = z.infer<typeof DelinquencyTimelineEntry>;

/** GET /api/customers/:id/delinquency: where the renter is in the schedule, what comes next and what stops it. */
export const DelinquencyTimeline = z.object({
  customerId: z.string(),
  status: DelinquencyStatus,
  /** Today in the facility's zone. */
  today: IsoDate,
  /** The open balance of sent and overdue invoices due before today. */
  pastDue: z.string(),
  /** The steps taken, oldest first (all of them, also those before a clear). */
  steps: z.array(DelinquencyTimelineEntry),
  /** Every delinquency event, oldest first: steps, clears, pauses, resumes. */
  events: z.array(DelinquencyTimelineEntry),
  /** The next step the schedule will take, and when (null: none is coming). */
  nextStep: z
    .object({
      kind: DelinquencyStepKind,
      label: z.string(),
      date: IsoDate,
      invoiceId: z.string(),
      invoiceNumber: z.string(),
      threshold: z.string(),
      /** What to pay to stop it: the past-due balance less the step's threshold. */
      amountToStop: z.string(),
    })
    .nullable(),
  pause: z.object({ until: IsoDate, reason: z.string() }).nullable(),
  /** The schedule that applies to the renter's facility. */
  schedule: z.array(DelinquencyStep),
});
export type DelinquencyTimeline = z.infer<typeof DelinquencyTimeline>;
