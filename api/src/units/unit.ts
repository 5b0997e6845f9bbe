import type { DomainEvent, EventData } from '@storage/contracts/events';

export type UnitFields = Omit<EventData<'unit_added'>, 'unitId'>;

export type UnitState = { status: 'none' } | { status: 'current'; unitId: string; fields: UnitFields };

export const initialUnitState: UnitState = { status: 'none' };

export function evolveUnit(state: UnitState, event: DomainEvent): UnitState {
  switch (event.type) {
    case 'unit_added': {
      const { unitId, ...fields } = event.data;
      return { status: 'current', unitId, fields };
    }
    case 'unit_status_changed':
      if (state.status === 'none') return state;
      return { ...state, fields: { ...state.fields, status: event.data.status } };
    default:
      return state;
  }
}

export const unitAggregate = { initial: initialUnitState, evolve: evolveUnit };
