import { z } from 'zod';
import { Id, RequiredText } from './fields.ts';

// The lease template: terms an owner writes, printed in the agreement after the ones the product
// generates from the billing settings and the access hours. The business's apply at every facility
// that has none of its own.

export const MAX_ADDITIONAL_TERMS = 20;
/** How many terms the agreement generates before the additional ones (api/src/leases/document.ts; its test holds it to this). */
export const GENERATED_LEASE_TERMS = 6;

/** A scope's additional terms, in the order the agreement numbers them. */
export const LeaseTerms = z.strictObject({
  additionalTerms: z.array(RequiredText(1000)).max(MAX_ADDITIONAL_TERMS, `must be at most ${MAX_ADDITIONAL_TERMS} terms`),
});
export type LeaseTerms = z.infer<typeof LeaseTerms>;

export const noLeaseTerms: LeaseTerms = { additionalTerms: [] };

/** The terms that apply at a facility: its own, else the business's, else none (the agreement and the settings screen ask this one rule). */
export function effectiveLeaseTerms(business: LeaseTerms | null, facility: LeaseTerms | null): LeaseTerms {
  return facility ?? business ?? noLeaseTerms;
}

/** GET /api/settings/lease-terms?facilityId=: which facility's own terms to show beside the business's. */
export const LeaseTermsQuery = z.strictObject({ facilityId: Id.optional() });
export type LeaseTermsQuery = z.input<typeof LeaseTermsQuery>;

/** GET /api/settings/lease-terms: the business's terms, the facility's own (null: it follows the business's) and those that apply. */
export const LeaseTermsAnswer = z.object({
  business: LeaseTerms.nullable(),
  facility: LeaseTerms.nullable(),
  effective: LeaseTerms,
});
export type LeaseTermsAnswer = z.infer<typeof LeaseTermsAnswer>;

/** PUT /api/settings/lease-terms: the business's terms (facilityId null) or a facility's own; a facility's null follows the business's. */
export const UpdateLeaseTermsRequest = z.strictObject({ facilityId: Id.nullable(), terms: LeaseTerms.nullable() });
export type UpdateLeaseTermsRequest = z.input<typeof UpdateLeaseTermsRequest>;
