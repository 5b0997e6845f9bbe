import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import { decidePasswordChange, evolveStaffPassword, staffPasswordAggregate, type ChangePassword } from './change-password.ts';

const given = (...events: DomainEvent[]) => ({
  when: (command: ChangePassword) => decidePasswordChange(command, events.reduce(evolveStaffPassword, staffPasswordAggregate.initial)),
});

const staffId = '5d7c2a10-8f1e-4b3a-9c6d-0e1f2a3b4c5d';
const registered: DomainEvent = {
  type: 'staff_registered',
  data: { staffId, email: 'owner@demo.test', firstName: 'Olivia', lastName: 'Owner', role: 'owner', passwordHash: 'hash-1' },
};

describe('change password', () => {
  it('replaces the hash that the current password was checked against', () => {
    expect(given(registered).when({ type: 'ChangePassword', staffId, verifiedHash: 'hash-1', newHash: 'hash-2' })).toEqual([
      { type: 'staff_password_changed', data: { staffId, passwordHash: 'hash-2' } },
    ]);
  });

  it('refuses when the password changed after it was checked', () => {
    const changed: DomainEvent = { type: 'staff_password_changed', data: { staffId, passwordHash: 'hash-3' } };
    expect(() => given(registered, changed).when({ type: 'ChangePassword', staffId, verifiedHash: 'hash-1', newHash: 'hash-2' })).toThrow(
      ConflictError,
    );
  });

  it('cannot change the password of an account that does not exist', () => {
    expect(() => given().when({ type: 'ChangePassword', staffId, verifiedHash: 'hash-1', newHash: 'hash-2' })).toThrow(NotFoundError);
  });
});
