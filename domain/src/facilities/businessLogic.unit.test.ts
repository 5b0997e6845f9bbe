import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import { decideFacility, type FacilityCommand } from './businessLogic.ts';
import { evolveFacility, type FacilityFields, initialFacilityState } from './facility.ts';

const given = (...events: DomainEvent[]) => ({
  when: (command: FacilityCommand) => decideFacility(command, events.reduce(evolveFacility, initialFacilityState)),
});

const facilityId = '0b6a4d0e-3f55-4d8e-9c1e-2a8f0c1d9e01';
const fields: FacilityFields = {
  name: 'Riverside Self Storage',
  address: '1200 River Rd, Portland, OR 97217',
  phone: '(503) 555-0100',
  managerName: 'Maria Gonzalez',
  timeZone: 'America/Los_Angeles',
  accessHours: null,
};
const added: DomainEvent = { type: 'facility_added', data: { facilityId, ...fields } };

describe('add facility', () => {
  it('adds a new facility', () => {
    expect(given().when({ type: 'AddFacility', facilityId, fields })).toEqual([added]);
  });

  it('refuses to add a facility twice', () => {
    expect(() => given(added).when({ type: 'AddFacility', facilityId, fields })).toThrow(ConflictError);
  });
});

describe('update facility', () => {
  it('records only the fields that change', () => {
    const changes = { name: fields.name, managerName: 'James Carter', timeZone: 'UTC' };
    expect(given(added).when({ type: 'UpdateFacility', facilityId, changes })).toEqual([
      { type: 'facility_updated', data: { facilityId, changes: { managerName: 'James Carter', timeZone: 'UTC' } } },
    ]);
  });

  it('records nothing when nothing changes', () => {
    const phoneRemoved: DomainEvent = { type: 'facility_updated', data: { facilityId, changes: { phone: null } } };
    expect(given(added, phoneRemoved).when({ type: 'UpdateFacility', facilityId, changes: { phone: null } })).toEqual([]);
  });

  it('records new access hours, and nothing when the same hours are sent again', () => {
    const accessHours = { opensAt: '06:00', closesAt: '22:00' };
    const hoursSet: DomainEvent = { type: 'facility_updated', data: { facilityId, changes: { accessHours } } };
    expect(given(added).when({ type: 'UpdateFacility', facilityId, changes: { accessHours } })).toEqual([hoursSet]);
    expect(given(added, hoursSet).when({ type: 'UpdateFacility', facilityId, changes: { accessHours: { ...accessHours } } })).toEqual([]);
    expect(given(added, hoursSet).when({ type: 'UpdateFacility', facilityId, changes: { accessHours: null } })).toEqual([
      { type: 'facility_updated', data: { facilityId, changes: { accessHours: null } } },
    ]);
  });

  it('gives a facility added before access hours existed 24-hour access', () => {
    const { accessHours: _none, ...before } = fields;
    const legacy: DomainEvent = { type: 'facility_added', data: { facilityId, ...before } };
    expect(given(legacy).when({ type: 'UpdateFacility', facilityId, changes: { accessHours: null } })).toEqual([]);
  });

  it('cannot update a facility that does not exist', () => {
    expect(() => given().when({ type: 'UpdateFacility', facilityId, changes: { phone: null } })).toThrow(NotFoundError);
  });
});
