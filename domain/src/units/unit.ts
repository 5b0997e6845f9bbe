import type { DomainEvent, EventData } from '@storage/contracts/events';

export type UnitFields = Omit<EventData<'unit_added'>, 'unitId'>;

export type UnitState =
  | { status: 'none' }
  | {
      status: 'current';
      unitId: string;
      fields: UnitFields;
      /** The lease that occupies the unit; null when none does, or it was occupied before leases were recorded. */
      leaseId: string | null;
      /** The reservation the unit is held for; null when it is not reserved for anyone in particular. */
      reservationId: string | null;
    };

export const initialUnitState: UnitState = { status: 'none' };

export function evolveUnit(state: UnitState, event: DomainEvent): UnitState {
  switch (event.type) {
    case 'unit_added': {
      const { unitId, ...fields } = event.data;
      return { status: 'current', unitId, fields, leaseId: null, reservationId: null };
    }
    case 'unit_status_changed':
      if (state.status === 'none') return state;
      return {
        ...state,
        fields: { ...state.fields, status: event.data.status },
        leaseId: event.data.leaseId,
        reservationId: event.data.reservationId,
      };
    case 'unit_features_changed':
      if (state.status === 'none') return state;
      return { ...state, fields: { ...state.fields, features: event.data.features } };
    default:
      return state;
  }
}

export const unitAggregate = { initial: initialUnitState, evolve: evolveUnit };
