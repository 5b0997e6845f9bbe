import { describe, expect, it } from 'vitest';
import { DomainRuleError } from '../commands/errors.ts';
import { newPasswordProblem, requireAcceptablePassword } from './password-rule.ts';

// An uncommon name, so that only the account's own data makes a password of it weak.
const zoe = { email: 'zephyrine.quillfeather@example.com', firstName: 'Zephyrine', lastName: 'Quillfeather' };
const olga = { email: 'olga.ortiz@example.com', firstName: 'Olga', lastName: 'Ortiz' };

describe('the rule for a new password', () => {
  it('refuses one under 12 characters, however random', async () => {
    expect(await newPasswordProblem('12345678', zoe)).toBe('must be at least 12 characters');
    expect(await newPasswordProblem('q7#Vm2!pLx9', zoe)).toBe('must be at least 12 characters');
  });

  it('refuses a long one that is easy to guess, saying why', async () => {
    expect(await newPasswordProblem('password1234', zoe)).toBe(
      'is too easy to guess: This is similar to a commonly used password. Add more words that are less common.',
    );
    expect(await newPasswordProblem('123456789012', zoe)).toMatch(/^is too easy to guess: \S/);
    expect(await newPasswordProblem('qwertyuiop12', zoe)).toMatch(/^is too easy to guess: \S/);
    expect(await newPasswordProblem('abcdefghijklmnop', zoe)).toMatch(/^is too easy to guess: Common character sequences/);
    expect(await newPasswordProblem('x'.repeat(200), zoe)).toMatch(/^is too easy to guess: Repeated characters/);
  });

  it("refuses one built from the account's own email or name, which is fine for someone else", async () => {
    expect(await newPasswordProblem('zephyrine.quillfeather@example.com', zoe)).toBe(
      'is too easy to guess: It contains the name or email of the account. Add more words that are less common.',
    );
    for (const password of ['zephyrinequillfeather', 'quillfeather1234', 'Quillfeather2024']) {
      expect(await newPasswordProblem(password, zoe)).toMatch(/^is too easy to guess: It contains the name or email of the account\./);
      expect(await newPasswordProblem(password, olga)).toBeNull();
    }
  });

  it('accepts a long random passphrase, and a random password of 12 characters', async () => {
    expect(await newPasswordProblem('glacier velvet turnip orbit', zoe)).toBeNull();
    expect(await newPasswordProblem('q7#Vm2!pLx9@', zoe)).toBeNull();
  });

  it('weighs the first 64 characters only, so a long one costs no more than that to check', async () => {
    const random64 = 'Vq8#mZ2!rT6$wY1@kP4%nB7^sD3&hF9*Lx5(Gc0)Jt2-Ne6+Ru8=Ao1?Wi3<Ez7>';
    expect(await newPasswordProblem(`${random64}${'1'.repeat(136)}`, zoe)).toBeNull();
    expect(await newPasswordProblem(`${'1'.repeat(64)}${random64}`, zoe)).toMatch(/^is too easy to guess: /);
  });

  it('refuses with a 400 that names the field and says why', async () => {
    const refused = await requireAcceptablePassword('newPassword', '12345678', zoe).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainRuleError);
    expect(refused).toMatchObject({ message: 'newPassword: must be at least 12 characters', field: 'newPassword' });
    await expect(requireAcceptablePassword('password', 'glacier velvet turnip orbit', zoe)).resolves.toBeUndefined();
  });
});
