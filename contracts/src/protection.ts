import { z } from 'zod';
import { Id, IsoDate, RequiredText } from './fields.ts';
import { FeeAmount, PositiveMoney, toCents } from './money.ts';

// Protection plans (tenant insurance): the tiers a business (or one facility) offers, what a
// lease carries, and the proof of a renter's own insurance. The premium is billed as a line of its
// own every period, by the billing engine (domain/src/billing/periods.ts).

const amount = z.string().regex(/^-?\d+\.\d{2}$/);

/** One tier: what it covers and what it costs a month. */
export const ProtectionPlan = z.strictObject({
  planId: Id,
  name: RequiredText(60),
  coverageAmount: PositiveMoney,
  monthlyPremium: FeeAmount.refine((v) => toCents(v) > 0n, 'must be more than 0.00'),
});
export type ProtectionPlan = z.infer<typeof ProtectionPlan>;

/**
 * A scope's plans. defaultPlanId: the plan a renter is enrolled in when they have neither a plan
 * nor proof of their own insurance `enrollAfterDays` days after the move-in (null: never).
 */
export const ProtectionSettings = z
  .strictObject({
    plans: z.array(ProtectionPlan).max(12, 'must be at most 12 plans'),
    defaultPlanId: Id.nullable(),
    enrollAfterDays: z.number('must be a whole number').int('must be a whole number').min(1, 'must be at least 1').max(365, 'must be at most 365').nullable(),
  })
  .superRefine((settings, ctx) => {
    const names = new Set<string>();
    settings.plans.forEach((plan, index) => {
      const name = plan.name.toLowerCase();
      if (names.has(name)) ctx.addIssue({ code: 'custom', path: ['plans', index, 'name'], message: 'must differ from the other plans' });
      names.add(name);
    });
    if (new Set(settings.plans.map((p) => p.planId)).size !== settings.plans.length) {
      ctx.addIssue({ code: 'custom', path: ['plans'], message: 'must not repeat a plan id' });
    }
    if (settings.defaultPlanId !== null && !settings.plans.some((p) => p.planId === settings.defaultPlanId)) {
      ctx.addIssue({ code: 'custom', path: ['defaultPlanId'], message: 'must be one of the plans' });
    }
    if (settings.enrollAfterDays !== null && settings.defaultPlanId === null) {
      ctx.addIssue({ code: 'custom', path: ['defaultPlanId'], message: 'is required to enroll renters without insurance' });
    }
  });
export type ProtectionSettings = z.infer<typeof ProtectionSettings>;

export const noProtectionPlans: ProtectionSettings = { plans: [], defaultPlanId: null, enrollAfterDays: null };

/** The plans that apply at a facility: its own, else the business's, else none (the engine and the settings screen ask this one rule). */
export function effectiveProtectionSettings(business: ProtectionSettings | null, facility: ProtectionSettings | null): ProtectionSettings {
  return facility ?? business ?? noProtectionPlans;
}

/** GET /api/settings/protection: the business's plans, the facility's own (null: it follows the business's) and those that apply. */
export const ProtectionSettingsAnswer = z.object({
  business: ProtectionSettings.nullable(),
  facility: ProtectionSettings.nullable(),
  effective: ProtectionSettings,
});
export type ProtectionSettingsAnswer = z.infer<typeof ProtectionSettingsAnswer>;

/** PUT /api/settings/protection: the business's plans (facilityId null) or a facility's own; a facility's null follows the business's. */
export const UpdateProtectionSettingsRequest = z.strictObject({ facilityId: Id.nullable(), settings: ProtectionSettings.nullable() });
export type UpdateProtectionSettingsRequest = z.input<typeof UpdateProtectionSettingsRequest>;

/** The plan a lease carries, as it was when chosen: a later edit of the tier does not change it. */
export const LeaseProtection = z.object({ planId: Id, name: z.string(), coverageAmount: amount, monthlyPremium: amount });
export type LeaseProtection = z.infer<typeof LeaseProtection>;

/** Why a lease's protection changed. */
export const ProtectionChangeReason = z.enum(['chosen_at_move_in', 'changed_by_staff', 'cancelled_by_staff', 'enrolled_by_default', 'chosen_by_renter']);
export type ProtectionChangeReason = z.infer<typeof ProtectionChangeReason>;

export const protectionChangeReasonLabels: Record<ProtectionChangeReason, string> = {
  chosen_at_move_in: 'Chosen at move-in',
  changed_by_staff: 'Changed by staff',
  cancelled_by_staff: 'Cancelled by staff',
  enrolled_by_default: 'Enrolled in the default plan: no plan and no proof of insurance',
  chosen_by_renter: 'Chosen by the renter',
};

/** POST /api/leases/:id/protection: a plan of the lease's facility (null: cancel the plan). */
export const ChangeLeaseProtectionRequest = z.strictObject({ planId: Id.nullable() });
export type ChangeLeaseProtectionRequest = z.input<typeof ChangeLeaseProtectionRequest>;

/** POST /api/customer/leases/:id/protection: the renter chooses or changes their plan (cancelling is the office's). */
export const ChooseProtectionRequest = z.strictObject({ planId: Id });
export type ChooseProtectionRequest = z.input<typeof ChooseProtectionRequest>;

/** POST /api/leases/:id/insurance-proof: the renter's own policy. */
export const RecordInsuranceProofRequest = z.strictObject({
  carrier: RequiredText(100),
  policyNumber: RequiredText(60),
  expiresOn: IsoDate,
});
export type RecordInsuranceProofRequest = z.input<typeof RecordInsuranceProofRequest>;

/** One change of a lease's protection, newest last (the lease page's history). */
export const ProtectionChange = z.object({
  protection: LeaseProtection.nullable(),
  /** The first day of the first period it is billed for. */
  effectiveDate: IsoDate,
  reason: ProtectionChangeReason,
  changedAt: z.string(),
});
export type ProtectionChange = z.infer<typeof ProtectionChange>;

/** GET /api/leases/:id/protection: the plan now, its history, the proof on file and the plans that may be chosen. */
export const LeaseProtectionView = z.object({
  leaseId: Id,
  current: LeaseProtection.nullable(),
  history: z.array(ProtectionChange),
  insuranceProof: z.object({ carrier: z.string(), policyNumber: z.string(), expiresOn: IsoDate }).nullable(),
  plans: z.array(ProtectionPlan),
});
export type LeaseProtectionView = z.infer<typeof LeaseProtectionView>;
