import { randomUUID } from 'node:crypto';
import { DEFAULT_TIME_ZONE } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { NotFoundError } from '../commands/errors.ts';
import { type CommandContext, handleCommand, loadAggregate } from '../commands/handle.ts';
import { changeUniqueKey, type UniqueKey, withUniqueKey } from '../commands/unique-keys.ts';
import { decideFacility } from './businessLogic.ts';
import { type FacilityFields, facilityAggregate } from './facility.ts';

function nameKey(name: string, ownerStream: string): UniqueKey {
  return { kind: 'facility-name', value: name, ownerStream, field: 'name', takenMessage: `A facility named ${name} already exists` };
}

/** A facility's details; without a time zone it keeps UTC until staff set one, without access hours it is open 24 hours. */
export type NewFacility = Omit<FacilityFields, 'timeZone' | 'accessHours'> & Partial<Pick<FacilityFields, 'timeZone' | 'accessHours'>>;

export async function addFacility(ctx: CommandContext, details: NewFacility, facilityId: string = randomUUID()) {
  const fields: FacilityFields = { ...details, timeZone: details.timeZone ?? DEFAULT_TIME_ZONE, accessHours: details.accessHours ?? null };
  const stream = streams.facility(facilityId);
  return withUniqueKey(ctx, nameKey(fields.name, stream), () =>
    handleCommand(ctx, stream, facilityAggregate, (state) => decideFacility({ type: 'AddFacility', facilityId, fields }, state)),
  );
}

export async function updateFacility(ctx: CommandContext, facilityId: string, changes: Partial<FacilityFields>) {
  const stream = streams.facility(facilityId);
  const update = () => handleCommand(ctx, stream, facilityAggregate, (state) => decideFacility({ type: 'UpdateFacility', facilityId, changes }, state));
  if (changes.name === undefined) return update();
  const { state } = await loadAggregate(ctx.store, stream, facilityAggregate);
  if (state.status === 'none') throw new NotFoundError('Facility not found');
  return changeUniqueKey(ctx, nameKey(changes.name, stream), state.fields.name, update);
}
