import type { DomainEvent } from '@storage/contracts/events';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import type { FacilityFields, FacilityState } from './facility.ts';

export type AddFacility = { type: 'AddFacility'; facilityId: string; fields: FacilityFields };
export type UpdateFacility = { type: 'UpdateFacility'; facilityId: string; changes: Partial<FacilityFields> };
export type FacilityCommand = AddFacility | UpdateFacility;

export function addFacility(command: AddFacility, state: FacilityState): DomainEvent[] {
  if (state.status !== 'none') throw new ConflictError('This facility already exists');
  return [{ type: 'facility_added', data: { facilityId: command.facilityId, ...command.fields } }];
}

export function updateFacility(command: UpdateFacility, state: FacilityState): DomainEvent[] {
  if (state.status === 'none') throw new NotFoundError('Facility not found');
  const changes = Object.fromEntries(
    Object.entries(command.changes).filter(([key, value]) => !sameValue(state.fields[key as keyof FacilityFields], value)),
  ) as Partial<FacilityFields>;
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'facility_updated', data: { facilityId: command.facilityId, changes } }];
}

/** Field values are text, null or access hours ({ opensAt, closesAt }), compared by what they say. */
function sameValue(current: FacilityFields[keyof FacilityFields], next: unknown): boolean {
  if (current && next && typeof current === 'object' && typeof next === 'object') {
    const hours = next as Record<string, unknown>;
    return current.opensAt === hours.opensAt && current.closesAt === hours.closesAt;
  }
  return current === next;
}

export function decideFacility(command: FacilityCommand, state: FacilityState): DomainEvent[] {
  switch (command.type) {
    case 'AddFacility':
      return addFacility(command, state);
    case 'UpdateFacility':
      return updateFacility(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
    }
  }
}
