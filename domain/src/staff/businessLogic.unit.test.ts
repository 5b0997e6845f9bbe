import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { decideStaff, type StaffCommand } from './businessLogic.ts';
import { evolveStaff, initialStaffState } from './staff.ts';

const staffId = '5d7c2a10-8f1e-4b3a-9c6d-0e1f2a3b4c5d';
const ownerId = '6e8d3b21-9f2a-4c4b-8d7e-1f2a3b4c5d6e';
const credential1 = '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
const credential2 = '1b2c3d4e-5f6a-4b7c-9d8e-9f0a1b2c3d4e';
const credential3 = '2c3d4e5f-6a7b-4c8d-8e9f-0a1b2c3d4e5f';

const registered = (role: 'owner' | 'manager' = 'owner'): DomainEvent => ({
  type: 'staff_registered',
  data: { staffId, email: 'olivia@demo.test', firstName: 'Olivia', lastName: 'Owner', role, credentialId: credential1 },
});

function given(...events: DomainEvent[]) {
  const state = events.reduce(evolveStaff, initialStaffState);
  return {
    when: (command: StaffCommand) => ({
      then: (expected: DomainEvent[]) => expect(decideStaff(command, state)).toEqual(expected),
      thenThrows: (error: new (...args: never[]) => Error, message?: string) => {
        expect(() => decideStaff(command, state)).toThrow(error);
        if (message) expect(() => decideStaff(command, state)).toThrow(message);
      },
    }),
  };
}

describe('registering a staff member', () => {
  const fields = { email: 'olivia@demo.test', firstName: 'Olivia', lastName: 'Owner', role: 'owner' as const };
  it('names the credential, never a password hash', () => {
    given().when({ type: 'RegisterStaff', staffId, credentialId: credential1, fields }).then([registered()]);
  });
  it('refuses an account that already exists', () => {
    given(registered()).when({ type: 'RegisterStaff', staffId, credentialId: credential2, fields }).thenThrows(ConflictError);
  });
});

describe('changing the password', () => {
  it('names the new credential when the checked one is still current', () => {
    given(registered())
      .when({ type: 'ChangePassword', staffId, verifiedCredentialId: credential1, newCredentialId: credential2 })
      .then([{ type: 'staff_password_changed', data: { staffId, credentialId: credential2 } }]);
  });
  it('refuses when the password changed after it was checked', () => {
    given(registered(), { type: 'staff_password_changed', data: { staffId, credentialId: credential3 } })
      .when({ type: 'ChangePassword', staffId, verifiedCredentialId: credential1, newCredentialId: credential2 })
      .thenThrows(ConflictError);
  });
  it('cannot change the password of an account that does not exist', () => {
    given().when({ type: 'ChangePassword', staffId, verifiedCredentialId: credential1, newCredentialId: credential2 }).thenThrows(NotFoundError);
  });
});

describe('changing a role', () => {
  it('records the new role', () => {
    given(registered('manager'))
      .when({ type: 'ChangeRole', staffId, role: 'clerk', otherActiveOwners: 0 })
      .then([{ type: 'staff_role_changed', data: { staffId, role: 'clerk' } }]);
  });
  it('records nothing when the role is already that', () => {
    given(registered('manager')).when({ type: 'ChangeRole', staffId, role: 'manager', otherActiveOwners: 0 }).then([]);
  });
  it('demotes an owner while another active owner remains', () => {
    given(registered('owner'))
      .when({ type: 'ChangeRole', staffId, role: 'auditor', otherActiveOwners: 1 })
      .then([{ type: 'staff_role_changed', data: { staffId, role: 'auditor' } }]);
  });
  it('refuses to demote the last active owner', () => {
    given(registered('owner'))
      .when({ type: 'ChangeRole', staffId, role: 'manager', otherActiveOwners: 0 })
      .thenThrows(ConflictError, 'The last active owner must stay an active owner');
  });
  it('lets a deactivated owner be demoted (they are not an active owner)', () => {
    given(registered('owner'), { type: 'staff_deactivated', data: { staffId } })
      .when({ type: 'ChangeRole', staffId, role: 'clerk', otherActiveOwners: 0 })
      .then([{ type: 'staff_role_changed', data: { staffId, role: 'clerk' } }]);
  });
  it('cannot change the role of an unknown account', () => {
    given().when({ type: 'ChangeRole', staffId, role: 'clerk', otherActiveOwners: 1 }).thenThrows(NotFoundError);
  });
});

describe('deactivating and reactivating', () => {
  it('deactivates a member', () => {
    given(registered('manager'))
      .when({ type: 'Deactivate', staffId, byStaffId: ownerId, otherActiveOwners: 1 })
      .then([{ type: 'staff_deactivated', data: { staffId } }]);
  });
  it('refuses to deactivate yourself', () => {
    given(registered('owner'))
      .when({ type: 'Deactivate', staffId, byStaffId: staffId, otherActiveOwners: 3 })
      .thenThrows(DomainRuleError, 'You cannot deactivate your own account');
  });
  it('refuses to deactivate the last active owner', () => {
    given(registered('owner')).when({ type: 'Deactivate', staffId, byStaffId: null, otherActiveOwners: 0 }).thenThrows(ConflictError);
  });
  it('records nothing for a member already deactivated', () => {
    given(registered('manager'), { type: 'staff_deactivated', data: { staffId } })
      .when({ type: 'Deactivate', staffId, byStaffId: ownerId, otherActiveOwners: 1 })
      .then([]);
  });
  it('reactivates a deactivated member, and does nothing for an active one', () => {
    given(registered('manager'), { type: 'staff_deactivated', data: { staffId } })
      .when({ type: 'Reactivate', staffId })
      .then([{ type: 'staff_reactivated', data: { staffId } }]);
    given(registered('manager')).when({ type: 'Reactivate', staffId }).then([]);
  });
});

describe('two-factor sign-in', () => {
  const factor1 = '3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a';
  const factor2 = '4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b';
  const enabled: DomainEvent = { type: 'staff_two_factor_enabled', data: { staffId, factorId: factor1 } };

  it('turns on with the confirmed factor, once', () => {
    given(registered()).when({ type: 'EnableTwoFactor', staffId, factorId: factor1 }).then([enabled]);
    given(registered(), enabled).when({ type: 'EnableTwoFactor', staffId, factorId: factor2 }).thenThrows(ConflictError);
  });
  it('turns off only with a code checked against the current factor', () => {
    given(registered(), enabled)
      .when({ type: 'DisableTwoFactor', staffId, verifiedFactorId: factor1 })
      .then([{ type: 'staff_two_factor_disabled', data: { staffId, factorId: factor1 } }]);
    given(registered(), enabled).when({ type: 'DisableTwoFactor', staffId, verifiedFactorId: factor2 }).thenThrows(ConflictError);
    given(registered()).when({ type: 'DisableTwoFactor', staffId, verifiedFactorId: factor1 }).thenThrows(ConflictError);
  });
  it('is reset by an owner, and a reset of a member without it records nothing', () => {
    given(registered(), enabled)
      .when({ type: 'ResetTwoFactor', staffId })
      .then([{ type: 'staff_two_factor_reset', data: { staffId, factorId: factor1 } }]);
    given(registered(), enabled, { type: 'staff_two_factor_reset', data: { staffId, factorId: factor1 } })
      .when({ type: 'ResetTwoFactor', staffId })
      .then([]);
  });
});
