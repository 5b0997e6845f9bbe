import { createHash } from 'node:crypto';

/** The session cookie's 32-byte key, derived from SESSION_SECRET. */
export function sessionKeyFrom(secret: string): Buffer {
  if (secret.length < 32) throw new Error('SESSION_SECRET must be at least 32 characters');
  return createHash('sha256').update(secret).digest();
}
