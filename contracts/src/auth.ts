import { z } from 'zod';
import { StaffRole } from './enums.ts';
import { Email } from './fields.ts';

export const LoginRequest = z.strictObject({
  email: Email,
  password: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
});
export type LoginRequest = z.input<typeof LoginRequest>;

export const AuthUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  role: StaffRole,
});
export type AuthUser = z.infer<typeof AuthUser>;

/**
 * The shortest new password accepted. The rule (domain/src/auth/password-rule.ts) also wants it hard
 * to guess, which takes dictionaries the browser need not load and the account's name and email:
 * the server decides, so a new password's shape below holds only its bounds.
 */
export const MIN_PASSWORD_LENGTH = 12;

/** What a form says about a new password, before the server's answer says what is wrong with one. */
export const NEW_PASSWORD_HELP = `At least ${MIN_PASSWORD_LENGTH} characters, hard to guess`;

export const NewPassword = z
  .string()
  .min(1, 'is required')
  .max(200, 'must be at most 200 characters')
  .describe(
    `At least ${MIN_PASSWORD_LENGTH} characters and hard to guess (a zxcvbn score of 3 or more, with the account's name and email counted as easy guesses); a refusal is a 400 naming the field and saying why`,
  );
