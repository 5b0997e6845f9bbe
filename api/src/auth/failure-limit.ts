import { type DatabasePool, type DatabaseTransactionConnection, sql } from 'slonik';
import { z } from 'zod';

// The one limiter of sign-in attempts, for both doors (staff sign-in and the portal gate): it
// counts FAILURES only (a correct sign-in never locks anyone out), as rows in PostgreSQL so that
// every API replica counts the same ones, per account, per account from one address and per
// address across accounts (password spraying), each within a sliding window.

export interface FailureLimit {
  kind: 'staff' | 'staff-code' | 'portal' | 'portal-code';
  windowMinutes: number;
  /** How long failures are kept, when a rule beyond the limit reads them longer than its window. */
  keepMinutes?: number;
  /** Failures for one account from any address (locks the account out everywhere: only for weak secrets). */
  perAccount?: number;
  /** Failures for one account from one address. */
  perAccountFromIp?: number;
  /** Failures from one address, whatever the accounts tried. */
  perIp: number;
  /** The 429 message, given the minutes until the next attempt may be made. */
  refusal(minutes: number): string;
  /**
   * Across addresses, per account: after `afterFailures` failures within the window, an attempt is
   * only checked once a rising delay has passed since the last failure (1 s, doubling, at most
   * `maxSeconds`), so a guesser spread over many addresses gets a few guesses a minute. It never
   * slows an attempt from a browser that signed in to the account before (`trusted`): the account's
   * own people are not locked out by someone else's guessing.
   */
  slowDown?: { afterFailures: number; maxSeconds: number; refusal(seconds: number): string };
}

// Advisory-lock classes, so an account and an address never share a lock key.
const ACCOUNT_LOCK_CLASS = 9101;
const IP_LOCK_CLASS = 9102;

/** Minutes until the limit lifts (when the failure that filled it leaves the window), or null when not reached. */
async function retryInMinutes(tx: DatabaseTransactionConnection, limit: FailureLimit, account: string, ip: string): Promise<number | null> {
  const windowStart = sql.fragment`now() - make_interval(mins => ${limit.windowMinutes})`;
  const nthNewest = (where: ReturnType<typeof sql.fragment>, max: number) => sql.fragment`
    (SELECT failed_at + make_interval(mins => ${limit.windowMinutes}) AS retry_at FROM sign_in_failures
      WHERE kind = ${limit.kind} AND ${where} AND failed_at > ${windowStart} ORDER BY failed_at DESC OFFSET ${max - 1} LIMIT 1)`;
  const limits = [
    ...(limit.perAccount ? [nthNewest(sql.fragment`account = ${account}`, limit.perAccount)] : []),
    ...(limit.perAccountFromIp ? [nthNewest(sql.fragment`account = ${account} AND ip = ${ip}`, limit.perAccountFromIp)] : []),
    nthNewest(sql.fragment`ip = ${ip}`, limit.perIp),
  ];
  const retryInMs = await tx.maybeOneFirst(sql.type(z.object({ retry_in_ms: z.number() }))`
    SELECT greatest(ceil(extract(epoch FROM max(retry_at) - now()) * 1000), 0)::int8 AS retry_in_ms
    FROM (${sql.join(limits, sql.fragment` UNION ALL `)}) limits HAVING count(*) > 0`);
  return retryInMs === null ? null : Math.max(1, Math.ceil(retryInMs / 60_000));
}

const SinceLast = z.object({ failures: z.number(), since_ms: z.number().nullable() });

/** Seconds until the account's slow-down lets the next attempt be checked, or null when it may be now. */
async function slowDownSeconds(tx: DatabaseTransactionConnection, limit: FailureLimit, account: string): Promise<number | null> {
  const slowDown = limit.slowDown;
  if (!slowDown) return null;
  const last = await tx.one(sql.type(SinceLast)`
    SELECT count(*)::int8 AS failures, (extract(epoch FROM now() - max(failed_at)) * 1000)::float8 AS since_ms
    FROM sign_in_failures
    WHERE kind = ${limit.kind} AND account = ${account} AND failed_at > now() - make_interval(mins => ${limit.windowMinutes})`);
  if (last.failures < slowDown.afterFailures || last.since_ms === null) return null;
  const delayMs = Math.min(2 ** (last.failures - slowDown.afterFailures) * 1000, slowDown.maxSeconds * 1000);
  return last.since_ms >= delayMs ? null : Math.max(1, Math.ceil((delayMs - last.since_ms) / 1000));
}

export type AttemptCheck<T, F> = { passed: T } | { failed: F };
export type AttemptOutcome<T, F> = AttemptCheck<T, F> | { refused: string };

/**
 * Runs one sign-in attempt under the limit; a failed check is recorded, a passed one is not.
 * Attempts for one account or address take turns, so parallel guesses cannot slip past the limit.
 */
export async function attemptSignIn<T, F>(
  pool: DatabasePool,
  limit: FailureLimit,
  attempt: { account: string; ip: string; trusted?: boolean },
  check: (tx: DatabaseTransactionConnection) => Promise<AttemptCheck<T, F>>,
): Promise<AttemptOutcome<T, F>> {
  const account = attempt.account.toLowerCase();
  const { ip } = attempt;
  return pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`SELECT pg_advisory_xact_lock(${ACCOUNT_LOCK_CLASS}, hashtext(${`${limit.kind}|${account}`}))`);
    await tx.query(sql.unsafe`SELECT pg_advisory_xact_lock(${IP_LOCK_CLASS}, hashtext(${`${limit.kind}|${ip}`}))`);
    const minutes = await retryInMinutes(tx, limit, account, ip);
    if (minutes !== null) return { refused: limit.refusal(minutes) };
    const seconds = attempt.trusted ? null : await slowDownSeconds(tx, limit, account);
    if (seconds !== null && limit.slowDown) return { refused: limit.slowDown.refusal(seconds) };
    const result = await check(tx);
    if ('passed' in result) return result;
    const keep = Math.max(limit.windowMinutes, limit.keepMinutes ?? 0);
    await tx.query(sql.unsafe`DELETE FROM sign_in_failures WHERE kind = ${limit.kind} AND failed_at <= now() - make_interval(mins => ${keep})`);
    await tx.query(sql.unsafe`INSERT INTO sign_in_failures (kind, account, ip) VALUES (${limit.kind}, ${account}, ${ip})`);
    return result;
  });
}
