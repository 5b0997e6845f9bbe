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
  /** Whether the member signs in with a code from an authenticator app after their password. */
  twoFactorEnabled: z.boolean(),
  /**
   * The business requires two-factor sign-in and the member has not set it up: their session may
   * only set it up (every other staff route answers 403 until they do).
   */
  twoFactorSetupRequired: z.boolean(),
});
export type AuthUser = z.infer<typeof AuthUser>;

/** The password was right and the member signs in with two factors: no session yet, the code comes next (POST /api/auth/two-factor). */
export const TwoFactorChallenge = z.object({ twoFactorRequired: z.literal(true) });
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallenge>;

/** What a right password answers: the signed-in member, or that a code is needed first. */
export const LoginAnswer = z.union([AuthUser, TwoFactorChallenge]);
export type LoginAnswer = z.infer<typeof LoginAnswer>;

/** How many digits an authenticator app's code has (RFC 6238, 30-second steps). */
export const TOTP_DIGITS = 6;

/** A current code from the authenticator app: 6 digits (spaces are ignored). */
export const TotpCode = z
  .string()
  .transform((code) => code.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'must be the 6-digit code from your authenticator app'));

/** A code from the authenticator app, or one of the member's recovery codes (which then stops working). */
export const TwoFactorCode = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(40, 'must be at most 40 characters')
  .describe('The 6-digit code from the authenticator app, or a recovery code (each works once)');

export const TwoFactorSignInRequest = z.strictObject({ code: TwoFactorCode });
export type TwoFactorSignInRequest = z.input<typeof TwoFactorSignInRequest>;

/** The signed-in member's two-factor sign-in, as Settings → Security shows it. */
export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  /** The business requires it of every staff member. */
  required: z.boolean(),
  /** Recovery codes not used yet; null while two-factor sign-in is off. */
  recoveryCodesLeft: z.number().int().nullable(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/** An enrolment started: the secret to add to an authenticator app (as a QR code, a URI or typed), until confirmed with a code. */
export const TwoFactorEnrolment = z.object({
  /** The otpauth:// key URI the QR code holds. */
  otpauthUri: z.string(),
  /** The secret in base32, to type into an app that cannot scan. */
  secret: z.string(),
  /** The QR code of the URI, an SVG image. */
  qrSvg: z.string(),
  /** Confirm before this, or start again. */
  expiresAt: z.string(),
});
export type TwoFactorEnrolment = z.infer<typeof TwoFactorEnrolment>;

export const ConfirmTwoFactorRequest = z.strictObject({ code: TotpCode });
export type ConfirmTwoFactorRequest = z.input<typeof ConfirmTwoFactorRequest>;

/** One-time recovery codes, shown this once: only their hashes are kept. */
export const RecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

export const TurnOffTwoFactorRequest = z.strictObject({
  password: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
  code: TwoFactorCode,
});
export type TurnOffTwoFactorRequest = z.input<typeof TurnOffTwoFactorRequest>;

export const RegenerateRecoveryCodesRequest = z.strictObject({ code: TotpCode });
export type RegenerateRecoveryCodesRequest = z.input<typeof RegenerateRecoveryCodesRequest>;

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
