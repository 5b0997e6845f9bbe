import { describe, expect, it } from 'vitest';
import { currentSchemaVersion, upcast, UnsupportedSchemaVersionError } from './events.ts';

const v1LeaseStarted = {
  leaseId: '9e1f3b7c-2d4a-4f6b-8a0c-1e2d3c4b5a03',
  customerId: '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04',
  unitId: '5d2c9a51-7a0e-4c43-8d3b-7a5a1f0e4b02',
  startDate: '2025-03-01',
  monthlyRate: '120.00',
  depositAmount: null,
};
const facilityId = '7c4d2e1f-3a5b-4c6d-8e9f-0a1b2c3d4e05';

describe('event schema versions', () => {
  it('writes lease_started and reservation_submitted as v2 and everything else as v1', () => {
    expect(currentSchemaVersion.lease_started).toBe(2);
    expect(currentSchemaVersion.reservation_submitted).toBe(2);
    expect(currentSchemaVersion.customer_added).toBe(1);
  });

  it('reads a v1 lease_started in the current shape, its facility unknown', () => {
    expect(upcast('lease_started', 1, v1LeaseStarted)).toEqual({ type: 'lease_started', data: { ...v1LeaseStarted, facilityId: null } });
  });

  it('reads a current lease_started as written', () => {
    expect(upcast('lease_started', 2, { ...v1LeaseStarted, facilityId }).data).toEqual({ ...v1LeaseStarted, facilityId });
  });

  it('refuses a version newer than this release knows, or no version at all', () => {
    expect(() => upcast('lease_started', 3, { ...v1LeaseStarted, facilityId })).toThrow(UnsupportedSchemaVersionError);
    expect(() => upcast('lease_started', 3, v1LeaseStarted)).toThrow('lease_started v3 cannot be read: this release reads versions 1 to 2');
    expect(() => upcast('customer_added', 0, {})).toThrow(UnsupportedSchemaVersionError);
  });

  it('refuses data that does not match its version', () => {
    expect(() => upcast('lease_started', 2, v1LeaseStarted)).toThrow();
  });

  it('reads a v1 reservation_submitted in the current shape: its customer, no contact kept', () => {
    const v1 = { reservationId: facilityId, unitId: facilityId, customerId: facilityId, moveInDate: '2026-01-01', specialRequests: null };
    expect(upcast('reservation_submitted', 1, v1).data).toEqual({ ...v1, contact: null });
    expect(() => upcast('reservation_submitted', 2, v1)).toThrow();
  });
});
