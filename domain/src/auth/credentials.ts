import { randomUUID } from 'node:crypto';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { hashPassword } from './passwords.ts';

// Password hashes live in the write side's staff_credentials table, never in events (which every
// auditor reads). A credential row is written first under a fresh id; the event appended after it
// names that id with the stream's expected revision, so the stream decides which credential is
// current. A crash between the two leaves a row no event names: never used, harmless.

/** Hashes the password and stores it as a new credential of the member; returns the credential's id. */
export async function storeCredential(pool: DatabasePool, staffId: string, password: string): Promise<string> {
  const credentialId = randomUUID();
  const passwordHash = await hashPassword(password);
  await pool.query(sql.unsafe`
    INSERT INTO staff_credentials (credential_id, staff_id, password_hash) VALUES (${credentialId}, ${staffId}, ${passwordHash})`);
  return credentialId;
}

/** The hash of a credential of this member, or null. */
export async function credentialHash(pool: DatabasePool, staffId: string, credentialId: string): Promise<string | null> {
  return pool.maybeOneFirst(sql.type(z.object({ password_hash: z.string() }))`
    SELECT password_hash FROM staff_credentials WHERE credential_id = ${credentialId} AND staff_id = ${staffId}`);
}
