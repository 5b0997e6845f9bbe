import { sql, type DatabasePool, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';

// The gate's rate limit: failures are rows in Postgres so every API replica counts the same ones.

const WINDOW_MINUTES = 15;
const FAILURES_PER_EMAIL = 5;
const FAILURES_PER_IP = 20;
// Advisory-lock classes, so an email and an IP never share a lock key.
const EMAIL_LOCK_CLASS = 9101;
const IP_LOCK_CLASS = 9102;

const windowStart = sql.fragment`now() - make_interval(mins => ${WINDOW_MINUTES})`;

/** The message of a refused attempt, or null when this email and IP may try. */
async function refusal(tx: DatabaseTransactionConnection, email: string, ip: string): Promise<string | null> {
  // The limit lifts when the failure that filled it leaves the window.
  const retryInMs = await tx.maybeOneFirst(sql.type(z.object({ retry_in_ms: z.number() }))`
    SELECT greatest(ceil(extract(epoch FROM max(retry_at) - now()) * 1000), 0)::int8 AS retry_in_ms FROM (
      (SELECT failed_at + make_interval(mins => ${WINDOW_MINUTES}) AS retry_at FROM portal_gate_failures
        WHERE email = ${email} AND failed_at > ${windowStart} ORDER BY failed_at DESC OFFSET ${FAILURES_PER_EMAIL - 1} LIMIT 1)
      UNION ALL
      (SELECT failed_at + make_interval(mins => ${WINDOW_MINUTES}) FROM portal_gate_failures
        WHERE ip = ${ip} AND failed_at > ${windowStart} ORDER BY failed_at DESC OFFSET ${FAILURES_PER_IP - 1} LIMIT 1)
    ) limits HAVING count(*) > 0`);
  if (retryInMs === null) return null;
  const minutes = Math.max(1, Math.ceil(retryInMs / 60_000));
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

export type GateCheck<T, F> = { passed: T } | { failed: F };
export type GateOutcome<T, F> = GateCheck<T, F> | { refused: string };

/**
 * Runs one gate attempt under the rate limit; a failed check is recorded. Attempts for one email
 * or IP take turns, so parallel guesses cannot slip past the limit.
 */
export async function attemptGate<T, F>(
  pool: DatabasePool,
  email: string,
  ip: string,
  check: (tx: DatabaseTransactionConnection) => Promise<GateCheck<T, F>>,
): Promise<GateOutcome<T, F>> {
  return pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`SELECT pg_advisory_xact_lock(${EMAIL_LOCK_CLASS}, hashtext(${email}))`);
    await tx.query(sql.unsafe`SELECT pg_advisory_xact_lock(${IP_LOCK_CLASS}, hashtext(${ip}))`);
    const message = await refusal(tx, email, ip);
    if (message) return { refused: message };
    const result = await check(tx);
    if ('passed' in result) return result;
    await tx.query(sql.unsafe`DELETE FROM portal_gate_failures WHERE failed_at <= ${windowStart}`);
    await tx.query(sql.unsafe`INSERT INTO portal_gate_failures (email, ip) VALUES (${email}, ${ip})`);
    return result;
  });
}
