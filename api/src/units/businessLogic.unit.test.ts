import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { decideUnit, type UnitCommand } from './businessLogic.ts';
import { evolveUnit, initialUnitState, type UnitFields } from './unit.ts';

const given = (...events: DomainEvent[]) => ({
  when: (command: UnitCommand) => decideUnit(command, events.reduce(evolveUnit, initialUnitState)),
});

const unitId = '5d2c9a51-7a0e-4c43-8d3b-7a5a1f0e4b02';
const fields: UnitFields = {
  facilityId: '0b6a4d0e-3f55-4d8e-9c1e-2a8f0c1d9e01',
  unitNumber: 'RS-A101',
  building: 'A',
  size: '10x10',
  monthlyRate: '120.00',
  status: 'available',
  description: null,
};
const added: DomainEvent = { type: 'unit_added', data: { unitId, ...fields } };
const statusChanged = (status: 'available' | 'occupied' | 'maintenance' | 'reserved', reason: string | null = null): DomainEvent => ({
  type: 'unit_status_changed',
  data: { unitId, status, reason },
});
const occupied = statusChanged('occupied', 'Lease started');

describe('add unit', () => {
  it('adds a new unit', () => {
    expect(given().when({ type: 'AddUnit', unitId, fields })).toEqual([added]);
  });

  it('refuses to add a unit twice', () => {
    expect(() => given(added).when({ type: 'AddUnit', unitId, fields })).toThrow(ConflictError);
  });

  it('refuses a monthly rate of zero', () => {
    expect(() => given().when({ type: 'AddUnit', unitId, fields: { ...fields, monthlyRate: '0.00' } })).toThrow(DomainRuleError);
  });

  it('refuses a unit that starts out occupied, as only a lease occupies a unit', () => {
    expect(() => given().when({ type: 'AddUnit', unitId, fields: { ...fields, status: 'occupied' } })).toThrow(DomainRuleError);
  });
});

describe('change unit status', () => {
  it('puts an available unit into maintenance with the reason', () => {
    expect(given(added).when({ type: 'ChangeUnitStatus', unitId, status: 'maintenance', reason: 'Door repair' })).toEqual([
      statusChanged('maintenance', 'Door repair'),
    ]);
  });

  it('records nothing when the status stays the same', () => {
    expect(given(added).when({ type: 'ChangeUnitStatus', unitId, status: 'available', reason: null })).toEqual([]);
  });

  it('refuses to mark a unit occupied by hand', () => {
    expect(() => given(added).when({ type: 'ChangeUnitStatus', unitId, status: 'occupied', reason: null })).toThrow(DomainRuleError);
  });

  it('refuses to change a leased unit by hand', () => {
    expect(() => given(added, occupied).when({ type: 'ChangeUnitStatus', unitId, status: 'maintenance', reason: null })).toThrow(
      /is leased: end its lease first/,
    );
  });

  it('cannot change a unit that does not exist', () => {
    expect(() => given().when({ type: 'ChangeUnitStatus', unitId, status: 'maintenance', reason: null })).toThrow(NotFoundError);
  });
});

describe('occupy unit', () => {
  it('occupies an available unit', () => {
    expect(given(added).when({ type: 'OccupyUnit', unitId })).toEqual([occupied]);
  });

  it('occupies a reserved unit', () => {
    expect(given(added, statusChanged('reserved')).when({ type: 'OccupyUnit', unitId })).toEqual([occupied]);
  });

  it('refuses a unit that is already leased', () => {
    expect(() => given(added, occupied).when({ type: 'OccupyUnit', unitId })).toThrow(/RS-A101 is already leased/);
  });

  it('refuses a unit under maintenance', () => {
    expect(() => given(added, statusChanged('maintenance')).when({ type: 'OccupyUnit', unitId })).toThrow(ConflictError);
  });

  it('cannot occupy a unit that does not exist', () => {
    expect(() => given().when({ type: 'OccupyUnit', unitId })).toThrow(NotFoundError);
  });
});

describe('vacate unit', () => {
  it('makes an occupied unit available again', () => {
    expect(given(added, occupied).when({ type: 'VacateUnit', unitId })).toEqual([statusChanged('available', 'Lease ended')]);
  });

  it('records nothing for a unit that is not occupied', () => {
    expect(given(added).when({ type: 'VacateUnit', unitId })).toEqual([]);
  });
});
