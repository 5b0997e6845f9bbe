import type { DomainEvent, EventData } from '@storage/contracts/events';

export type LeaseTerms = Omit<EventData<'lease_started'>, 'leaseId'>;

export type LeaseState =
  | { status: 'none' }
  /** Took its unit but never started (the request stopped); it can no longer start. */
  | { status: 'abandoned'; leaseId: string }
  | { status: 'active'; leaseId: string; terms: LeaseTerms }
  | { status: 'ended'; leaseId: string; terms: LeaseTerms; endDate: string };

export const initialLeaseState: LeaseState = { status: 'none' };

export function evolveLease(state: LeaseState, event: DomainEvent): LeaseState {
  switch (event.type) {
    case 'lease_started': {
      const { leaseId, ...terms } = event.data;
      return { status: 'active', leaseId, terms };
    }
    case 'lease_start_abandoned':
      return state.status === 'none' ? { status: 'abandoned', leaseId: event.data.leaseId } : state;
    case 'lease_ended':
      if (state.status !== 'active') return state;
      return { ...state, status: 'ended', endDate: event.data.endDate };
    default:
      return state;
  }
}

export const leaseAggregate = { initial: initialLeaseState, evolve: evolveLease };
