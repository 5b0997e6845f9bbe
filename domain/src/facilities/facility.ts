import type { DomainEvent, EventData } from '@storage/contracts/events';

export type FacilityFields = Omit<EventData<'facility_added'>, 'facilityId'>;

export type FacilityState = { status: 'none' } | { status: 'current'; facilityId: string; fields: FacilityFields };

export const initialFacilityState: FacilityState = { status: 'none' };

export function evolveFacility(state: FacilityState, event: DomainEvent): FacilityState {
  switch (event.type) {
    case 'facility_added': {
      const { facilityId, ...fields } = event.data;
      return { status: 'current', facilityId, fields };
    }
    case 'facility_updated':
      if (state.status === 'none') return state;
      return { ...state, fields: { ...state.fields, ...event.data.changes } };
    default:
      return state;
  }
}

export const facilityAggregate = { initial: initialFacilityState, evolve: evolveFacility };
