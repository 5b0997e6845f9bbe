import { describe, expect, it } from 'vitest';
import { ChangePasswordRequest, maskPublishableKey } from './settings.ts';

describe('publishable key mask', () => {
  it('shows the mode and the last four characters only', () => {
    expect(maskPublishableKey('pk_test_51H8abcdefghijklmnop1234')).toBe('pk_test_••••1234');
    expect(maskPublishableKey('pk_live_51H8abcdefghijklmnopWXYZ')).toBe('pk_live_••••WXYZ');
  });

  it('hides everything but the last four of a key without a known mode', () => {
    expect(maskPublishableKey('somekey9876')).toBe('••••9876');
  });
});

describe('password change request', () => {
  const valid = { currentPassword: 'demo1234', newPassword: 'longer-secret', confirmPassword: 'longer-secret' };
  const firstIssuePath = (value: object) => ChangePasswordRequest.safeParse(value).error?.issues[0]?.path.join('.');

  it('accepts a new password that differs from the current one, confirmed', () => {
    expect(ChangePasswordRequest.safeParse(valid).success).toBe(true);
    // Long enough and hard enough to guess is the server's rule (domain/src/auth/password-rule.ts), which knows whose it is.
    expect(ChangePasswordRequest.safeParse({ ...valid, newPassword: 'short', confirmPassword: 'short' }).success).toBe(true);
  });

  it('names the field that is wrong', () => {
    expect(firstIssuePath({ ...valid, newPassword: '', confirmPassword: '' })).toBe('newPassword');
    expect(firstIssuePath({ ...valid, newPassword: 'x'.repeat(201), confirmPassword: 'x'.repeat(201) })).toBe('newPassword');
    expect(firstIssuePath({ ...valid, newPassword: 'demo1234', confirmPassword: 'demo1234' })).toBe('newPassword');
    expect(firstIssuePath({ ...valid, confirmPassword: 'longer-secreT' })).toBe('confirmPassword');
    expect(firstIssuePath({ ...valid, currentPassword: '' })).toBe('currentPassword');
  });
});
