import { createHash, randomBytes } from 'node:crypto';
import { type CommonQueryMethods, sql } from 'slonik';
import { z } from 'zod';

// Server-side sessions (table `sessions`, migration 013). The session cookie carries only random
// tokens; a row, keyed by the token's SHA-256, says whose session it is, until when, and whether
// it was revoked. Every request checks its rows, so revoking ends a session at once on every
// API replica.

export type SessionKind = 'staff' | 'customer';

/** Staff sessions last a working day; a renter's portal session a visit. */
export const SESSION_LIFETIME_SECONDS: Record<SessionKind, number> = { staff: 12 * 60 * 60, customer: 2 * 60 * 60 };

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** Opens a session for `subjectId` and returns the token its cookie carries. Prunes expired rows on the way (sign-ins are rare). */
export async function openSession(db: CommonQueryMethods, kind: SessionKind, subjectId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(sql.unsafe`DELETE FROM sessions WHERE expires_at < now()`);
  await db.query(sql.unsafe`
    INSERT INTO sessions (id, kind, subject_id, expires_at)
    VALUES (${digest(token)}, ${kind}, ${subjectId}, now() + make_interval(secs => ${SESSION_LIFETIME_SECONDS[kind]}))`);
  return token;
}

const LiveSession = z.object({ kind: z.enum(['staff', 'customer']), subject_id: z.string() });

/** The subjects of the live (not revoked, not expired) sessions among `tokens`, in one query. */
export async function resolveSessions(
  db: CommonQueryMethods,
  tokens: { staff?: string; customer?: string },
): Promise<{ staffId: string | null; customerId: string | null }> {
  const wanted = (['staff', 'customer'] as const).filter((kind) => tokens[kind]).map((kind) => sql.fragment`(${digest(tokens[kind]!)}, ${kind})`);
  if (wanted.length === 0) return { staffId: null, customerId: null };
  const rows = await db.any(sql.type(LiveSession)`
    SELECT kind, subject_id FROM sessions
    WHERE (id, kind) IN (${sql.join(wanted, sql.fragment`, `)}) AND revoked_at IS NULL AND expires_at > now()`);
  return {
    staffId: rows.find((r) => r.kind === 'staff')?.subject_id ?? null,
    customerId: rows.find((r) => r.kind === 'customer')?.subject_id ?? null,
  };
}

/** Ends the sessions of these tokens (unknown or already ended ones are ignored). */
export async function revokeSessions(db: CommonQueryMethods, tokens: readonly (string | undefined)[]): Promise<void> {
  const ids = tokens.filter((t): t is string => typeof t === 'string' && t.length > 0).map(digest);
  if (ids.length === 0) return;
  await db.query(sql.unsafe`UPDATE sessions SET revoked_at = now() WHERE id = ANY(${sql.array(ids, 'text')}) AND revoked_at IS NULL`);
}

/**
 * Ends every live session of a staff member, except the one whose token is `options.except` (the
 * session that changed the password stays signed in). For password changes and deactivation.
 * Returns how many sessions it ended.
 */
export async function revokeStaffSessions(db: CommonQueryMethods, staffId: string, options: { except?: string } = {}): Promise<number> {
  const keep = options.except ? digest(options.except) : null;
  const ended = await db.query(sql.unsafe`
    UPDATE sessions SET revoked_at = now()
    WHERE kind = 'staff' AND subject_id = ${staffId} AND revoked_at IS NULL AND expires_at > now()
      AND (${keep}::text IS NULL OR id <> ${keep}::text)`);
  return ended.rowCount;
}
