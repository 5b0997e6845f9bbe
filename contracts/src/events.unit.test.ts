import { describe, expect, it } from 'vitest';
import { currentSchemaVersion, REDACTED, readableEvent, redactEvent, secretFields, UnsupportedSchemaVersionError, upcast } from './events.ts';

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
  it('writes lease_started, reservation_submitted, unit_added and the staff credential events as v2, everything else as v1', () => {
    expect(currentSchemaVersion.lease_started).toBe(2);
    expect(currentSchemaVersion.unit_added).toBe(2);
    expect(currentSchemaVersion.reservation_submitted).toBe(2);
    expect(currentSchemaVersion.staff_registered).toBe(2);
    expect(currentSchemaVersion.staff_password_changed).toBe(2);
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

  it('reads a v1 unit_added in the current shape: a unit nobody described, no feature claimed', () => {
    const v1 = {
      unitId: facilityId,
      facilityId: null,
      unitNumber: 'A101',
      building: 'A',
      size: '10x10',
      monthlyRate: '120.00',
      status: 'available',
      description: null,
    };
    expect(upcast('unit_added', 1, v1).data).toEqual({ ...v1, features: { climateControlled: false, driveUp: false, floor: null, lockType: null } });
    expect(() => upcast('unit_added', 2, v1)).toThrow();
  });

  it('reads a v1 reservation_submitted in the current shape: its customer, no contact kept', () => {
    const v1 = { reservationId: facilityId, unitId: facilityId, customerId: facilityId, moveInDate: '2026-01-01', specialRequests: null };
    expect(upcast('reservation_submitted', 1, v1).data).toEqual({ ...v1, contact: null });
    expect(() => upcast('reservation_submitted', 2, v1)).toThrow();
  });
});

describe('credentials and secrets in events', () => {
  const staffId = '5d7c2a10-8f1e-4b3a-9c6d-0e1f2a3b4c5d';
  const v1Registered = { staffId, email: 'a@b.test', firstName: null, lastName: null, role: 'owner', passwordHash: 'scrypt$SECRET' };

  it('reads a v1 staff event without its password hash, naming the legacy credential (the staff id)', () => {
    expect(upcast('staff_registered', 1, v1Registered).data).toEqual({ ...v1Registered, passwordHash: undefined, credentialId: staffId });
    expect(upcast('staff_registered', 1, v1Registered).data).not.toHaveProperty('passwordHash');
    expect(upcast('staff_password_changed', 1, { staffId, passwordHash: 'scrypt$SECRET' }).data).toEqual({ staffId, credentialId: staffId });
    // A v1 event already scrubbed by migration 012 reads the same.
    expect(upcast('staff_password_changed', 1, { staffId }).data).toEqual({ staffId, credentialId: staffId });
  });

  it('shows declared secret fields only as redacted, and keeps the real value for commands', () => {
    expect(secretFields.gateway_key_rotated).toEqual(['keyHash']);
    const rotated = { type: 'gateway_key_rotated' as const, data: { facilityId: staffId, keyHash: 'HASH', keyPrefix: 'gk_12' } };
    expect(redactEvent(rotated).data).toEqual({ facilityId: staffId, keyHash: REDACTED, keyPrefix: 'gk_12' });
    expect(rotated.data.keyHash).toBe('HASH');
    expect(readableEvent('gateway_key_rotated', 1, rotated.data)).toEqual({ facilityId: staffId, keyHash: REDACTED, keyPrefix: 'gk_12' });
    expect(JSON.stringify(readableEvent('staff_registered', 1, v1Registered))).not.toContain('SECRET');
  });

  it('drops every known secret field name from data of an event type it does not know', () => {
    expect(readableEvent('from_the_future', 1, { passwordHash: 'SECRET', keyHash: 'SECRET', note: 'kept' })).toEqual({ note: 'kept' });
  });
});
