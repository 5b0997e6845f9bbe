import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

// scrypt with N=2^15, r=8, p=1 (OWASP's minimum), stored with its parameters so they can grow.
export const PRODUCTION_COST = 32768;
const r = 8;
const p = 1;
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

/**
 * The scrypt cost (N) of new hashes: production's, unless the test runner lowered it. The suite
 * signs in over a thousand times and each hash at N=2^15 costs about 140 ms of CPU, so
 * vitest.config.ts sets PASSWORD_COST_FOR_TESTS (a power of two); it counts only in a process
 * vitest started (VITEST set), never in the product's own processes, whatever their environment.
 * Stored hashes name their cost, so verifying one is as cheap as it was made.
 */
export function passwordCost(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const lowered = Number(env.PASSWORD_COST_FOR_TESTS);
  if (!env.VITEST || !Number.isInteger(lowered) || lowered < 2 || lowered > PRODUCTION_COST || (lowered & (lowered - 1)) !== 0) return PRODUCTION_COST;
  return lowered;
}

const N = passwordCost();

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: MAX_MEMORY });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, expected] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !rr || !pp || !salt || !expected) return false;
  const expectedKey = Buffer.from(expected, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expectedKey.length, {
    N: Number(n),
    r: Number(rr),
    p: Number(pp),
    maxmem: MAX_MEMORY,
  });
  return timingSafeEqual(key, expectedKey);
}

/** Compared against when the email is unknown, so a miss costs as long as a wrong password. */
export const UNKNOWN_USER_HASH = `scrypt$${N}$${r}$${p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;
