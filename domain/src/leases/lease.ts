import type { DomainEvent, EventData } from '@storage/contracts/events';
import type { LeasePromotion } from '@storage/contracts/promotions';
import type { LeaseProtection, ProtectionChangeReason } from '@storage/contracts/protection';

export type LeaseTerms = Omit<EventData<'lease_started'>, 'leaseId'>;

/** A rent change scheduled on the lease (lease_rent_change_scheduled); a cancelled one is kept, marked, so a repeat of it is known. */
export interface ScheduledRentChange {
  changeId: string;
  currentRate: string;
  newRate: string;
  noticeDate: string;
  effectiveDate: string;
  reason: string | null;
  cancelled: boolean;
}

/**
 * A move-out staff scheduled for a day after they asked (lease_move_out_scheduled), with the
 * deposit choice it settles with; kept once the lease ended, so the day's process can finish what
 * a stopped attempt left undone.
 */
export type ScheduledMoveOut = Omit<EventData<'lease_move_out_scheduled'>, 'leaseId' | 'customerId' | 'unitId'>;

/** One choice of protection plan, from effectiveDate (protection null: none from then). */
export interface ProtectionChoice {
  protection: LeaseProtection | null;
  effectiveDate: string;
  reason: ProtectionChangeReason;
}

/** The renter's own insurance on file. */
export type InsuranceProof = Omit<EventData<'lease_insurance_proof_recorded'>, 'leaseId' | 'customerId'>;

/** What an active or ended lease holds besides its terms. rentChanges: in the order they were scheduled. */
type LeaseBook = {
  leaseId: string;
  terms: LeaseTerms;
  /** The last day its rent is invoiced for (null: not even the move-in invoice yet). */
  billedThrough: string | null;
  /** The first day of the last period invoiced (null: none yet). */
  lastPeriodStart: string | null;
  deposit?: DepositSettlement;
  rentChanges: readonly ScheduledRentChange[];
  /** The move-out scheduled and not cancelled (null: none). */
  moveOut: ScheduledMoveOut | null;
  /** Its protection plans over time, in the order chosen. */
  protection: readonly ProtectionChoice[];
  /** The renter's own insurance on file (null: none). */
  insuranceProof: InsuranceProof | null;
  /** The promotion given at the move-in (null: none). */
  promotion: LeasePromotion | null;
};

export type LeaseState =
  | { status: 'none' }
  /** Took its unit but never started (the request stopped); it can no longer start. */
  | { status: 'abandoned'; leaseId: string }
  | ({ status: 'active' } & LeaseBook)
  | ({ status: 'ended'; endDate: string } & LeaseBook);

/** What staff chose, at move-out, to do with the deposit the renter paid. */
export type DepositSettlement = Omit<EventData<'lease_deposit_settled'>, 'leaseId' | 'customerId'>;

export const initialLeaseState: LeaseState = { status: 'none' };

export function evolveLease(state: LeaseState, event: DomainEvent): LeaseState {
  switch (event.type) {
    case 'lease_started': {
      const { leaseId, ...terms } = event.data;
      return {
        status: 'active',
        leaseId,
        terms,
        billedThrough: null,
        lastPeriodStart: null,
        rentChanges: [],
        moveOut: null,
        protection: [],
        insuranceProof: null,
        promotion: null,
      };
    }
    case 'lease_start_abandoned':
      return state.status === 'none' ? { status: 'abandoned', leaseId: event.data.leaseId } : state;
    case 'lease_rent_billed':
      if (state.status !== 'active' && state.status !== 'ended') return state;
      return { ...state, billedThrough: event.data.periodEnd, lastPeriodStart: event.data.periodStart };
    case 'lease_ended':
      if (state.status !== 'active') return state;
      return { ...state, status: 'ended', endDate: event.data.endDate };
    case 'lease_deposit_settled': {
      if (state.status !== 'active' && state.status !== 'ended') return state;
      const { leaseId: _lease, customerId: _customer, ...deposit } = event.data;
      return { ...state, deposit };
    }
    case 'lease_move_out_scheduled': {
      if (state.status !== 'active') return state;
      const { leaseId: _lease, customerId: _customer, unitId: _unit, ...moveOut } = event.data;
      return { ...state, moveOut };
    }
    case 'lease_move_out_cancelled':
      if (state.status !== 'active') return state;
      return { ...state, moveOut: null };
    case 'lease_rent_change_scheduled': {
      if (state.status !== 'active' && state.status !== 'ended') return state;
      const { changeId, currentRate, newRate, noticeDate, effectiveDate, reason } = event.data;
      return { ...state, rentChanges: [...state.rentChanges, { changeId, currentRate, newRate, noticeDate, effectiveDate, reason, cancelled: false }] };
    }
    case 'lease_rent_change_cancelled': {
      if (state.status !== 'active' && state.status !== 'ended') return state;
      const { changeId } = event.data;
      return { ...state, rentChanges: state.rentChanges.map((c) => (c.changeId === changeId ? { ...c, cancelled: true } : c)) };
    }
    case 'lease_protection_changed': {
      if (state.status !== 'active' && state.status !== 'ended') return state;
      const { protection, effectiveDate, reason } = event.data;
      return { ...state, protection: [...state.protection, { protection, effectiveDate, reason }] };
    }
    case 'lease_insurance_proof_recorded': {
      if (state.status !== 'active' && state.status !== 'ended') return state;
      const { leaseId: _lease, customerId: _customer, ...proof } = event.data;
      return { ...state, insuranceProof: proof };
    }
    case 'lease_promotion_applied':
      if (state.status !== 'active' && state.status !== 'ended') return state;
      return { ...state, promotion: event.data.promotion };
    default:
      return state;
  }
}

export const leaseAggregate = { initial: initialLeaseState, evolve: evolveLease };
