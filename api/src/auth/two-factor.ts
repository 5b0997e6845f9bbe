import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { StaffRow } from '@storage/domain/auth/staff';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { type CommonQueryMethods, sql } from 'slonik';
import { z } from 'zod';
import type { FailureLimit } from './failure-limit.ts';

// Two-factor sign-in of staff: TOTP (RFC 6238: 30-second steps, 6 digits, SHA-1, what every
// authenticator app reads) with one-time recovery codes. The factors live in the API's own table
// staff_two_factor (migration 054), never in events or the read model: the secret encrypted with
// AES-256-GCM under a key derived from the session key (the row's id as associated data, so a
// ciphertext copied to another row does not open), recovery codes as HMACs under another derived
// key. A copy of the database alone signs no one in.

const PERIOD_SECONDS = 30;
const DIGITS = 6;
const ALGORITHM = 'SHA1';
/** Shown in the authenticator app beside the member's email. */
const ISSUER = 'Self Storage';
/** An enrolment must be confirmed with a code within this time, or started again. */
const ENROLMENT_MINUTES = 10;
const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: a code is read off paper. 31 letters, 10 of them: about 50 bits a code. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_CODE_LENGTH = 10;

/**
 * Wrong two-factor codes, per account across addresses: whoever types them already knows the
 * password, and a 6-digit code is a weak secret, so 10 wrong codes in 15 minutes stop the account's
 * code step everywhere for a while (about a year of guessing per right code).
 */
export const TWO_FACTOR_CODE_LIMIT: FailureLimit = {
  kind: 'staff-code',
  windowMinutes: 15,
  perAccount: 10,
  perIp: 20,
  refusal: (minutes) => `Too many wrong codes. Try again in ${minutes} minutes.`,
};

// The sign-in's pending marker in the secure session cookie.
declare module '@fastify/secure-session' {
  interface SessionData {
    /** The password was right; the member's code is awaited until `until` (ms since the epoch). */
    pendingTwoFactor: { staffId: string; until: number };
  }
}

export interface TwoFactorKeys {
  readonly secret: Buffer;
  readonly recovery: Buffer;
}

const derivedKeys = new WeakMap<Buffer, TwoFactorKeys>();

/** The keys of the two-factor table, derived from the session key (HKDF-SHA-256, one label each). */
export function twoFactorKeys(sessionKey: Buffer): TwoFactorKeys {
  let keys = derivedKeys.get(sessionKey);
  if (!keys) {
    const derive = (label: string) => Buffer.from(hkdfSync('sha256', sessionKey, Buffer.alloc(0), label, 32));
    keys = { secret: derive('storage staff two-factor secret v1'), recovery: derive('storage staff two-factor recovery codes v1') };
    derivedKeys.set(sessionKey, keys);
  }
  return keys;
}

function encryptSecret(keys: TwoFactorKeys, factorId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.secret, iv);
  cipher.setAAD(Buffer.from(factorId));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', ...[iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url'))].join('.');
}

/** The secret in base32; null when it does not open (another session key, or a row it was not written for). */
function decryptSecret(keys: TwoFactorKeys, factorId: string, stored: string): string | null {
  const [version, iv, ciphertext, tag] = stored.split('.');
  if (version !== 'v1' || !iv || !ciphertext || !tag) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keys.secret, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(factorId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** A recovery code as typed, in the one form it is hashed in: lower case, without spaces or dashes. */
const normalRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

const recoveryCodeHash = (keys: TwoFactorKeys, factorId: string, code: string) =>
  createHmac('sha256', keys.recovery)
    .update(`${factorId}|${normalRecoveryCode(code)}`)
    .digest('hex');

function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const characters = Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${characters.slice(0, 5)}-${characters.slice(5)}`;
  });
}

const totpOf = (secret: string, label: string) =>
  new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), algorithm: ALGORITHM, digits: DIGITS, period: PERIOD_SECONDS });

/** The time step a TOTP code belongs to, within one step either side of now (clock drift); null when it is none of them. */
function stepOfCode(secret: string, code: string, now: number): number | null {
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: PERIOD_SECONDS,
    timestamp: now,
    window: 1,
  });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

/** A code typed as an authenticator app shows it (6 digits, spaces allowed); anything else is taken as a recovery code. */
const looksLikeTotp = (code: string) => /^\d{6}$/.test(code.replace(/\s+/g, ''));

/** One factor: its id and its encrypted secret. */
export const FactorRow = z.object({ factor_id: z.string(), secret_ciphertext: z.string() });
export type FactorRow = z.infer<typeof FactorRow>;

/** Starts an enrolment: a new secret, kept unconfirmed; the member's earlier unconfirmed ones end. */
export async function startEnrolment(db: CommonQueryMethods, keys: TwoFactorKeys, staff: { id: string; email: string }) {
  const factorId = randomUUID();
  const secret = new Secret({ size: 20 }).base32;
  await db.query(sql.unsafe`DELETE FROM staff_two_factor WHERE staff_id = ${staff.id} AND confirmed_at IS NULL`);
  const expiresAt = await db.oneFirst(sql.type(z.object({ pending_until: z.string() }))`
    INSERT INTO staff_two_factor (factor_id, staff_id, secret_ciphertext, pending_until)
    VALUES (${factorId}, ${staff.id}, ${encryptSecret(keys, factorId, secret)}, now() + make_interval(mins => ${ENROLMENT_MINUTES}))
    RETURNING pending_until`);
  const otpauthUri = totpOf(secret, staff.email).toString();
  const qrSvg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { factorId, otpauthUri, secret, qrSvg, expiresAt };
}

/** The member's enrolment awaiting its first code, if one was started and has not run out. */
export function pendingEnrolment(db: CommonQueryMethods, staffId: string) {
  return db.maybeOne(sql.type(FactorRow)`
    SELECT factor_id::text, secret_ciphertext FROM staff_two_factor
    WHERE staff_id = ${staffId} AND confirmed_at IS NULL AND pending_until > now()
    ORDER BY created_at DESC LIMIT 1`);
}

/** A confirmed factor of the member by its id (the one their stream names). */
export function confirmedFactor(db: CommonQueryMethods, staffId: string, factorId: string) {
  return db.maybeOne(sql.type(FactorRow)`
    SELECT factor_id::text, secret_ciphertext FROM staff_two_factor
    WHERE factor_id = ${factorId} AND staff_id = ${staffId} AND confirmed_at IS NOT NULL`);
}

/**
 * Accepts a current TOTP code once: its step must be newer than the last accepted one, which it
 * then becomes (one statement, so two requests with the same code cannot both pass).
 */
export async function acceptTotp(db: CommonQueryMethods, keys: TwoFactorKeys, factor: FactorRow, code: string, now = Date.now()): Promise<boolean> {
  const secret = decryptSecret(keys, factor.factor_id, factor.secret_ciphertext);
  const digits = code.replace(/\s+/g, '');
  if (!secret || !/^\d{6}$/.test(digits)) return false;
  const step = stepOfCode(secret, digits, now);
  if (step === null) return false;
  const taken = await db.query(sql.unsafe`
    UPDATE staff_two_factor SET last_used_step = ${step}
    WHERE factor_id = ${factor.factor_id} AND (last_used_step IS NULL OR last_used_step < ${step})`);
  return taken.rowCount === 1;
}

/** Accepts one of the factor's recovery codes, which stops working. */
export async function acceptRecoveryCode(db: CommonQueryMethods, keys: TwoFactorKeys, factorId: string, code: string): Promise<boolean> {
  if (normalRecoveryCode(code).length !== RECOVERY_CODE_LENGTH) return false;
  const hash = recoveryCodeHash(keys, factorId, code);
  const used = await db.query(sql.unsafe`
    UPDATE staff_two_factor SET recovery_code_hashes = array_remove(recovery_code_hashes, ${hash})
    WHERE factor_id = ${factorId} AND confirmed_at IS NOT NULL AND ${hash} = ANY(recovery_code_hashes)`);
  return used.rowCount === 1;
}

/** A code from the app, or a recovery code: which one was accepted, or null. */
export async function acceptCode(db: CommonQueryMethods, keys: TwoFactorKeys, factor: FactorRow, code: string): Promise<'totp' | 'recovery' | null> {
  if (looksLikeTotp(code)) return (await acceptTotp(db, keys, factor, code)) ? 'totp' : null;
  return (await acceptRecoveryCode(db, keys, factor.factor_id, code)) ? 'recovery' : null;
}

/** Marks the enrolment confirmed with a fresh set of recovery codes: the codes, to be shown once. */
export async function confirmEnrolment(db: CommonQueryMethods, keys: TwoFactorKeys, factorId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await db.query(sql.unsafe`
    UPDATE staff_two_factor
    SET confirmed_at = now(), pending_until = NULL,
        recovery_code_hashes = ${sql.array(
          codes.map((code) => recoveryCodeHash(keys, factorId, code)),
          'text',
        )}
    WHERE factor_id = ${factorId}`);
  return codes;
}

/** New recovery codes for the factor; the old ones stop working. */
export async function replaceRecoveryCodes(db: CommonQueryMethods, keys: TwoFactorKeys, factorId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await db.query(sql.unsafe`
    UPDATE staff_two_factor SET recovery_code_hashes = ${sql.array(
      codes.map((code) => recoveryCodeHash(keys, factorId, code)),
      'text',
    )}
    WHERE factor_id = ${factorId}`);
  return codes;
}

/** How many recovery codes the factor has left. */
export async function recoveryCodesLeft(db: CommonQueryMethods, factorId: string): Promise<number | null> {
  return db.maybeOneFirst(sql.type(z.object({ left: z.number() }))`
    SELECT cardinality(recovery_code_hashes)::int8 AS left FROM staff_two_factor WHERE factor_id = ${factorId}`);
}

/**
 * Deletes the member's factors once their stream says none is current (turned off or reset): a
 * retired secret is not kept (the read model shows the change first: the caller waited for it).
 */
export async function forgetFactors(db: CommonQueryMethods, staffId: string): Promise<void> {
  await db.query(sql.unsafe`
    DELETE FROM staff_two_factor f WHERE f.staff_id = ${staffId}
      AND NOT EXISTS (SELECT 1 FROM staff s WHERE s.id = f.staff_id AND s.two_factor_id = f.factor_id)`);
}

const SignInFactor = StaffRow.extend(FactorRow.shape);
export type SignInFactor = z.infer<typeof SignInFactor>;

/** The active member the pending sign-in names, with their current factor (the read model says which); null when there is none. */
export function signInFactor(db: CommonQueryMethods, staffId: string) {
  return db.maybeOne(sql.type(SignInFactor)`
    SELECT s.id::text, s.email, s.first_name, s.last_name, s.profile_image_url, s.role, f.factor_id::text, f.secret_ciphertext
    FROM staff s JOIN staff_two_factor f ON f.factor_id = s.two_factor_id AND f.staff_id = s.id AND f.confirmed_at IS NOT NULL
    WHERE s.id = ${staffId} AND s.status = 'active'`);
}

/** Whether the business requires two-factor sign-in of every staff member (the read model's business settings). */
export async function twoFactorRequired(db: CommonQueryMethods): Promise<boolean> {
  return db.oneFirst(sql.type(z.object({ required: z.boolean() }))`
    SELECT coalesce((SELECT two_factor_required FROM settings WHERE scope = 'business'), false) AS required`);
}
