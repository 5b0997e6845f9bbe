import { createHash, randomBytes } from 'node:crypto';
import { StaffRow } from '@storage/domain/auth/staff';
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

const LiveSession = z.object({
  id: z.string(),
  kind: z.enum(['staff', 'customer']),
  subject_id: z.string(),
  staff: StaffRow.nullable(),
  two_factor_enabled: z.boolean(),
  two_factor_required: z.boolean(),
});

/** A staff session's two-factor sign-in: whether the member has it on, and whether the business requires it. */
export interface SessionTwoFactor {
  enabled: boolean;
  required: boolean;
}

/**
 * The live sessions among some token digests, with the active staff member a staff session names.
 * One text whatever the tokens, so it is a named statement: every request runs it, and PostgreSQL
 * planned it anew each time (planning took four times as long as running it).
 */
const liveSessions = sql.prepared('resolve_sessions', LiveSession);

/**
 * The subjects of the live (not revoked, not expired) sessions among `tokens`, and the active
 * staff member a staff session names (null when deactivated) with their two-factor sign-in, in
 * one query. Every staff request
 * reads it (requireStaff): a deactivated member's sessions answer 401 on every replica from the
 * moment the read model shows the deactivation, and a role change applies from the next request.
 */
export async function resolveSessions(
  db: CommonQueryMethods,
  tokens: { staff?: string; customer?: string },
): Promise<{ staffId: string | null; customerId: string | null; staff: StaffRow | null; twoFactor: SessionTwoFactor | null }> {
  /** Digest → the kind of session its token was given as: a row counts only as that kind. */
  const wanted = new Map<string, SessionKind>();
  for (const kind of ['staff', 'customer'] as const) if (tokens[kind]) wanted.set(digest(tokens[kind]), kind);
  if (wanted.size === 0) return { staffId: null, customerId: null, staff: null, twoFactor: null };
  const found = await db.any(liveSessions`
    SELECT s.id, s.kind, s.subject_id,
           CASE WHEN m.id IS NULL THEN NULL ELSE json_build_object(
             'id', m.id::text, 'email', m.email, 'first_name', m.first_name, 'last_name', m.last_name,
             'profile_image_url', m.profile_image_url, 'role', m.role) END AS staff,
           m.two_factor_id IS NOT NULL AS two_factor_enabled,
           m.id IS NOT NULL AND coalesce((SELECT b.two_factor_required FROM settings b WHERE b.scope = 'business'), false) AS two_factor_required
    FROM sessions s
    LEFT JOIN staff m ON s.kind = 'staff' AND m.id::text = s.subject_id AND m.status = 'active'
    WHERE s.id = ANY(${sql.array([...wanted.keys()], 'text')}) AND s.revoked_at IS NULL AND s.expires_at > now()`);
  const rows = found.filter((row) => wanted.get(row.id) === row.kind);
  const staffSession = rows.find((r) => r.kind === 'staff');
  return {
    staffId: staffSession?.subject_id ?? null,
    customerId: rows.find((r) => r.kind === 'customer')?.subject_id ?? null,
    staff: staffSession?.staff ?? null,
    twoFactor: staffSession?.staff ? { enabled: staffSession.two_factor_enabled, required: staffSession.two_factor_required } : null,
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
