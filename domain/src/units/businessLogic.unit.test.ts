import type { DomainEvent } from '@storage/contracts/events';
import type { UnitFeatures } from '@storage/contracts/unit-features';
import { describe, expect, it } from 'vitest';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { decideUnit, type OccupyUnit, type UnitCommand } from './businessLogic.ts';
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
  features: { climateControlled: false, driveUp: false, floor: null, lockType: null },
};
const added: DomainEvent = { type: 'unit_added', data: { unitId, ...fields } };
type Holder = { leaseId?: string; reservationId?: string };
const statusChanged = (status: 'available' | 'occupied' | 'maintenance' | 'reserved', reason: string | null = null, holder: Holder = {}): DomainEvent => ({
  type: 'unit_status_changed',
  data: { unitId, status, reason, leaseId: holder.leaseId ?? null, reservationId: holder.reservationId ?? null },
});
const leaseId = '9e1f3b7c-2d4a-4f6b-8a0c-1e2d3c4b5a03';
const otherLeaseId = '7c0a9b8d-1e2f-4a3b-8c4d-5e6f7a8b9c05';
const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const otherCustomerId = '6b5a4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c06';
const reservationId = '2f3e4d5c-6b7a-4988-8776-655443322110';
const occupied = statusChanged('occupied', 'Lease started', { leaseId });
const reserved = statusChanged('reserved', 'Reserved', { reservationId });
const occupy = (overrides: Partial<OccupyUnit> = {}): UnitCommand => ({ type: 'OccupyUnit', unitId, leaseId, customerId, reservation: null, ...overrides });

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

describe('set unit features', () => {
  const features = { climateControlled: true, driveUp: false, floor: 2, lockType: 'smart' as const };
  const set = (f: UnitFeatures = features): UnitCommand => ({ type: 'SetUnitFeatures', unitId, features: f });

  it('records everything the unit offers', () => {
    expect(given(added).when(set())).toEqual([{ type: 'unit_features_changed', data: { unitId, features } }]);
  });

  it('records nothing when the unit already offers exactly that', () => {
    expect(given(added, { type: 'unit_features_changed', data: { unitId, features } }).when(set())).toEqual([]);
    expect(given(added).when(set(fields.features))).toEqual([]);
  });

  it('describes a leased unit too: what it offers does not change with its renter', () => {
    expect(given(added, occupied).when(set())).toHaveLength(1);
  });

  it('refuses a unit that does not exist', () => {
    expect(() => given().when(set())).toThrow(NotFoundError);
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

describe('reserve unit', () => {
  it('holds an available unit for a reservation', () => {
    expect(given(added).when({ type: 'ReserveUnit', unitId, reservationId })).toEqual([reserved]);
  });

  it('records nothing when the unit is already held for that reservation', () => {
    expect(given(added, reserved).when({ type: 'ReserveUnit', unitId, reservationId })).toEqual([]);
  });

  it('refuses a unit that is leased or held for another reservation', () => {
    expect(() => given(added, occupied).when({ type: 'ReserveUnit', unitId, reservationId })).toThrow(/is not available/);
    expect(() => given(added, reserved).when({ type: 'ReserveUnit', unitId, reservationId: leaseId })).toThrow(ConflictError);
  });
});

describe('occupy unit', () => {
  it('occupies an available unit, naming the lease that holds it', () => {
    expect(given(added).when(occupy())).toEqual([occupied]);
  });

  it('occupies a unit reserved without a reservation on record', () => {
    expect(given(added, statusChanged('reserved')).when(occupy())).toEqual([occupied]);
  });

  it("occupies a reserved unit for the reservation's own customer", () => {
    expect(given(added, reserved).when(occupy({ reservation: { reservationId, customerId } }))).toEqual([occupied]);
  });

  it('refuses a reserved unit to any other customer', () => {
    expect(() => given(added, reserved).when(occupy({ customerId: otherCustomerId, reservation: { reservationId, customerId } }))).toThrow(
      /RS-A101 is reserved for another customer/,
    );
    expect(() => given(added, reserved).when(occupy())).toThrow(/reserved for another customer/);
  });

  it('records nothing when the same lease asks again (a retried move-in)', () => {
    expect(given(added, occupied).when(occupy())).toEqual([]);
  });

  it('refuses a unit that another lease holds', () => {
    expect(() => given(added, occupied).when(occupy({ leaseId: otherLeaseId }))).toThrow(/RS-A101 is already leased/);
  });

  it('refuses a unit under maintenance', () => {
    expect(() => given(added, statusChanged('maintenance')).when(occupy())).toThrow(ConflictError);
  });

  it('cannot occupy a unit that does not exist', () => {
    expect(() => given().when(occupy())).toThrow(NotFoundError);
  });
});

describe('vacate unit', () => {
  it('makes a unit available again when its lease ends', () => {
    expect(given(added, occupied).when({ type: 'VacateUnit', unitId, leaseId })).toEqual([statusChanged('available', 'Lease ended')]);
  });

  it('records nothing for a unit that is not occupied, so ending a lease can be retried', () => {
    expect(given(added).when({ type: 'VacateUnit', unitId, leaseId })).toEqual([]);
    expect(given(added, occupied, statusChanged('available', 'Lease ended')).when({ type: 'VacateUnit', unitId, leaseId })).toEqual([]);
  });

  it('leaves the unit to the lease that holds it now', () => {
    const nextTenant = statusChanged('occupied', 'Lease started', { leaseId: otherLeaseId });
    expect(given(added, occupied, statusChanged('available', 'Lease ended'), nextTenant).when({ type: 'VacateUnit', unitId, leaseId })).toEqual([]);
  });

  it('frees a unit occupied before leases were recorded on units', () => {
    const legacyOccupied = statusChanged('occupied', 'Lease started');
    expect(given(added, legacyOccupied).when({ type: 'VacateUnit', unitId, leaseId })).toHaveLength(1);
  });
});

describe('unit status change', () => {
  it('lets go of a reservation when the status is changed by hand', () => {
    const state = [added, reserved, statusChanged('maintenance', 'Flooded')].reduce(evolveUnit, initialUnitState);
    expect(state).toMatchObject({ reservationId: null, leaseId: null, fields: { status: 'maintenance' } });
  });
});
