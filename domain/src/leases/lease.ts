import type { DomainEvent, EventData } from '@storage/contracts/events';

export type LeaseTerms = Omit<EventData<'lease_started'>, 'leaseId'>;

export type LeaseState =
  | { status: 'none' }
  /** Took its unit but never started (the request stopped); it can no longer start. */
  | { status: 'abandoned'; leaseId: string }
  /** billedThrough: the last day its rent is invoiced for (null: not even the move-in invoice yet). */
  | { status: 'active'; leaseId: string; terms: LeaseTerms; billedThrough: string | null; deposit?: DepositSettlement }
  | { status: 'ended'; leaseId: string; terms: LeaseTerms; billedThrough: string | null; endDate: string; deposit?: DepositSettlement };

/** What staff chose, at move-out, to do with the deposit the renter paid. */
export type DepositSettlement = Omit<EventData<'lease_deposit_settled'>, 'leaseId' | 'customerId'>;

export const initialLeaseState: LeaseState = { status: 'none' };

export function evolveLease(state: LeaseState, event: DomainEvent): LeaseState {
  switch (event.type) {
    case 'lease_started': {
      const { leaseId, ...terms } = event.data;
      return { status: 'active', leaseId, terms, billedThrough: null };
    }
    case 'lease_start_abandoned':
      return state.status === 'none' ? { status: 'abandoned', leaseId: event.data.leaseId } : state;
    case 'lease_rent_billed':
      if (state.status !== 'active' && state.status !== 'ended') return state;
      return { ...state, billedThrough: event.data.periodEnd };
    case 'lease_ended':
      if (state.status !== 'active') return state;
      return { ...state, status: 'ended', endDate: event.data.endDate };
    case 'lease_deposit_settled': {
      if (state.status !== 'active' && state.status !== 'ended') return state;
      const { leaseId: _lease, customerId: _customer, ...deposit } = event.data;
      return { ...state, deposit };
    }
    default:
      return state;
  }
}

export const leaseAggregate = { initial: initialLeaseState, evolve: evolveLease };
