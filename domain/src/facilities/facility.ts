import type { AccessHours } from '@storage/contracts/access-hours';
import type { DomainEvent, EventData } from '@storage/contracts/events';

/** accessHours null: 24-hour access. */
export type FacilityFields = Omit<EventData<'facility_added'>, 'facilityId' | 'accessHours'> & { accessHours: AccessHours | null };

export type FacilityState = { status: 'none' } | { status: 'current'; facilityId: string; fields: FacilityFields };

export const initialFacilityState: FacilityState = { status: 'none' };

export function evolveFacility(state: FacilityState, event: DomainEvent): FacilityState {
  switch (event.type) {
    case 'facility_added': {
      const { facilityId, accessHours, ...fields } = event.data;
      // Facilities added before access hours existed give 24-hour access.
      return { status: 'current', facilityId, fields: { ...fields, accessHours: accessHours ?? null } };
    }
    case 'facility_updated':
      if (state.status === 'none') return state;
      return { ...state, fields: { ...state.fields, ...event.data.changes } };
    default:
      return state;
  }
}

export const facilityAggregate = { initial: initialFacilityState, evolve: evolveFacility };
