import { type DomainEvent, streams } from '@storage/contracts/events';
import type { LeaseProtection, LeaseProtectionView, ProtectionChange, ProtectionChangeReason } from '@storage/contracts/protection';
import { type EventStore, readStreams } from '@storage/eventstore/port';
import { addDays, todayIn } from '../billing/calendar.ts';
import { chosenPlan } from '../billing/offers.ts';
import { protectionOn } from '../billing/periods.ts';
import { type FacilityTerms, facilityBilling } from '../billing/settings.ts';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { aggregateFrom, type CommandContext, handleCommand, toDomainEvent } from '../commands/handle.ts';
import { type LeaseState, leaseAggregate } from './lease.ts';

// A lease's protection plan after the move-in: chosen, changed or cancelled by staff (or given
// the default plan by the facility's day), billed from the first period not yet invoiced; and the
// renter's own insurance on file instead.

type Held = Extract<LeaseState, { status: 'active' | 'ended' }>;

function heldLease(state: LeaseState): Held {
  if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Lease not found');
  return state;
}

/** The first day a change of plan is billed for: the day after what is invoiced (the move-in day before any invoice). */
export function protectionEffectiveDate(lease: Held): string {
  return lease.billedThrough === null ? lease.terms.startDate : addDays(lease.billedThrough, 1);
}

const samePlan = (a: LeaseProtection | null, b: LeaseProtection | null) =>
  a === null || b === null ? a === b : a.planId === b.planId && a.monthlyPremium === b.monthlyPremium && a.coverageAmount === b.coverageAmount;

/** The plan (null: none) from the first period not yet invoiced; the plan it has then already: nothing recorded. */
export function decideProtectionChange(state: LeaseState, protection: LeaseProtection | null, reason: ProtectionChangeReason): DomainEvent[] {
  const lease = heldLease(state);
  if (lease.status === 'ended') throw new ConflictError(`This lease ended on ${lease.endDate}`);
  const effectiveDate = protectionEffectiveDate(lease);
  const endDate = lease.moveOut?.endDate ?? null;
  if (endDate !== null && effectiveDate > endDate) throw new ConflictError(`This lease is invoiced up to its move-out on ${endDate}`);
  if (samePlan(protectionOn(lease.protection, effectiveDate), protection)) return [];
  const { customerId } = lease.terms;
  return [{ type: 'lease_protection_changed', data: { leaseId: lease.leaseId, customerId, protection, effectiveDate, reason } }];
}

/** The renter's own policy, on file until it expires; one that has expired by `today` is refused. */
export function decideInsuranceProof(state: LeaseState, proof: { carrier: string; policyNumber: string; expiresOn: string }, today: string): DomainEvent[] {
  const lease = heldLease(state);
  if (lease.status === 'ended') throw new ConflictError(`This lease ended on ${lease.endDate}`);
  if (proof.expiresOn <= today) throw new DomainRuleError(`expiresOn: must be after today (${today})`, 'expiresOn');
  const { carrier, policyNumber, expiresOn } = proof;
  const on = lease.insuranceProof;
  if (on && on.carrier === carrier && on.policyNumber === policyNumber && on.expiresOn === expiresOn) return [];
  return [{ type: 'lease_insurance_proof_recorded', data: { leaseId: lease.leaseId, customerId: lease.terms.customerId, carrier, policyNumber, expiresOn } }];
}

/** The lease's stream and its facility's terms (plans, zone), read in two statements. */
async function leaseWithOffers(ctx: CommandContext, leaseId: string) {
  const stream = streams.lease(leaseId);
  const read = await readStreams(ctx.store, [stream]);
  const lease = aggregateFrom(read.get(stream) ?? [], leaseAggregate);
  const held = heldLease(lease.state);
  const offers = await facilityBilling(ctx.store, held.terms.facilityId);
  return { stream, lease, offers };
}

/** Staff choose, change (planId) or cancel (null) the lease's plan; a renter (by: 'renter') chooses or changes it. */
export async function changeLeaseProtection(ctx: CommandContext, leaseId: string, planId: string | null, by: 'staff' | 'renter' = 'staff') {
  const { stream, lease, offers } = await leaseWithOffers(ctx, leaseId);
  const protection = planId === null ? null : chosenPlan(offers, planId, 'planId');
  const reason: ProtectionChangeReason = by === 'renter' ? 'chosen_by_renter' : protection === null ? 'cancelled_by_staff' : 'changed_by_staff';
  return handleCommand(ctx, stream, leaseAggregate, (state) => decideProtectionChange(state, protection, reason), lease);
}

/** Staff record the renter's own insurance (checked against the facility's today). */
export async function recordInsuranceProof(ctx: CommandContext, leaseId: string, proof: { carrier: string; policyNumber: string; expiresOn: string }) {
  const { stream, lease, offers } = await leaseWithOffers(ctx, leaseId);
  const today = todayIn(offers.timeZone, ctx.now);
  return handleCommand(ctx, stream, leaseAggregate, (state) => decideInsuranceProof(state, proof, today), lease);
}

/**
 * The facility's day: a lease with no plan and no proof of insurance in force `enrollAfterDays`
 * after its move-in is enrolled in the default plan (nothing when the facility has none).
 */
export function decideDefaultEnrollment(state: LeaseState, offers: Pick<FacilityTerms, 'protection'>, today: string): DomainEvent[] {
  if (state.status !== 'active' || state.moveOut !== null) return [];
  const { defaultPlanId, enrollAfterDays } = offers.protection;
  if (defaultPlanId === null || enrollAfterDays === null) return [];
  if (addDays(state.terms.startDate, enrollAfterDays) > today) return [];
  // Once the lease has had a plan (even one cancelled since), the renter chose: never enrolled again.
  if (state.protection.length > 0) return [];
  if (state.insuranceProof && state.insuranceProof.expiresOn > today) return [];
  return decideProtectionChange(state, chosenPlan(offers, defaultPlanId, 'defaultPlanId'), 'enrolled_by_default');
}

/** The facility's day enrols the lease in the default plan when decideDefaultEnrollment says so (a repeat records nothing). */
export async function enrollInDefaultPlan(ctx: CommandContext, leaseId: string, offers: Pick<FacilityTerms, 'protection'>, today: string) {
  return handleCommand(ctx, streams.lease(leaseId), leaseAggregate, (state) => decideDefaultEnrollment(state, offers, today));
}

/**
 * The lease's protection as its stream tells it (the plan from now on, each change with when it
 * was made, the proof on file) and the plans its facility offers: what the lease page shows and
 * the change dialog offers.
 */
export async function leaseProtectionView(store: EventStore, leaseId: string): Promise<LeaseProtectionView> {
  const recorded = await store.readStream(streams.lease(leaseId));
  const { state } = aggregateFrom(recorded, leaseAggregate);
  const lease = heldLease(state);
  const history: ProtectionChange[] = recorded.flatMap((event) => {
    const domainEvent = toDomainEvent(event);
    if (domainEvent.type !== 'lease_protection_changed') return [];
    const { protection, effectiveDate, reason } = domainEvent.data;
    return [{ protection, effectiveDate, reason, changedAt: event.recordedAt }];
  });
  const offers = await facilityBilling(store, lease.terms.facilityId);
  return {
    leaseId,
    current: history.at(-1)?.protection ?? null,
    history,
    insuranceProof: lease.insuranceProof,
    plans: [...offers.protection.plans],
  };
}
