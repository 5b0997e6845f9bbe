import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Mailer } from '@storage/platform/mail/port';
import { type CommonQueryMethods, sql } from 'slonik';
import { z } from 'zod';

// The portal gate's second factor. The gate's secret (the last 4 digits of a phone) is short and
// often known to others, so once an email's gate has seen failures, the digits alone no longer
// open a session: a right pair mails a one-time code to the email on file, and the code opens it.
// A guesser gets at most a few tries a day at an email before every right guess only mails its
// renter; the renter is never locked out (the code reaches them whatever a guesser did).

/** Failures at an email from one address, within WATCH_HOURS, before that address needs a code too (a renter's own typos). */
export const DIRECT_FAILURES_FROM_ADDRESS = 3;
/** How long the gate's failures at an email make it ask for a code. */
export const WATCH_HOURS = 24;
export const CODE_MINUTES = 10;
/** Wrong codes before a code stops working (a new one can be asked for). */
export const CODE_TRIES = 5;
/** Codes mailed to one email in an hour: the gate cannot be used to flood a mailbox. */
export const CODES_PER_HOUR = 5;

const Counts = z.object({ here: z.number(), elsewhere: z.number() });

/**
 * Whether a right pair of email and digits from `ip` needs the mailed code: the email's gate saw
 * a failure from another address within the watch, or this address's failures reached its share.
 */
export async function codeRequired(db: CommonQueryMethods, email: string, ip: string): Promise<boolean> {
  const counts = await db.one(sql.type(Counts)`
    SELECT count(*) FILTER (WHERE ip = ${ip})::int8 AS here, count(*) FILTER (WHERE ip <> ${ip})::int8 AS elsewhere
    FROM sign_in_failures
    WHERE kind IN ('portal', 'portal-code') AND account = ${email.toLowerCase()} AND failed_at > now() - make_interval(hours => ${WATCH_HOURS})`);
  return counts.elsewhere > 0 || counts.here >= DIRECT_FAILURES_FROM_ADDRESS;
}

const hashOf = (id: string, code: string) => createHash('sha256').update(`${id}:${code}`).digest('hex');

export type IssuedCode = { code: string } | { retryInMinutes: number };

/**
 * A new code for the renter, replacing any earlier one of the email, unless CODES_PER_HOUR were
 * mailed within the hour (then the minutes until the oldest of them leaves it).
 */
export async function issueCode(db: CommonQueryMethods, customerId: string, email: string): Promise<IssuedCode> {
  const address = email.toLowerCase();
  const waitMs = await db.maybeOneFirst(sql.type(z.object({ wait_ms: z.number() }))`
    SELECT greatest(ceil(extract(epoch FROM created_at + interval '1 hour' - now()) * 1000), 0)::int8 AS wait_ms
    FROM portal_sign_in_codes WHERE email = ${address} AND created_at > now() - interval '1 hour'
    ORDER BY created_at DESC OFFSET ${CODES_PER_HOUR - 1} LIMIT 1`);
  if (waitMs !== null) return { retryInMinutes: Math.max(1, Math.ceil(waitMs / 60_000)) };
  await db.query(sql.unsafe`DELETE FROM portal_sign_in_codes WHERE expires_at < now() - interval '1 hour'`);
  await db.query(sql.unsafe`UPDATE portal_sign_in_codes SET used_at = now() WHERE email = ${address} AND used_at IS NULL`);
  const id = randomUUID();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.query(sql.unsafe`
    INSERT INTO portal_sign_in_codes (id, customer_id, email, code_hash, expires_at)
    VALUES (${id}, ${customerId}, ${address}, ${hashOf(id, code)}, now() + make_interval(mins => ${CODE_MINUTES}))`);
  return { code };
}

const Live = z.object({ id: z.string(), customer_id: z.string(), code_hash: z.string(), tries: z.number() });

/** The renter the email's live code opens a session for, once; null for a wrong, used, expired or worn-out code. */
export async function redeemCode(db: CommonQueryMethods, email: string, code: string): Promise<string | null> {
  const live = await db.maybeOne(sql.type(Live)`
    SELECT id::text, customer_id::text, code_hash, tries FROM portal_sign_in_codes
    WHERE email = ${email.toLowerCase()} AND used_at IS NULL AND expires_at > now()
    ORDER BY created_at DESC LIMIT 1 FOR UPDATE`);
  if (!live || live.tries >= CODE_TRIES) return null;
  const right = timingSafeEqual(Buffer.from(hashOf(live.id, code)), Buffer.from(live.code_hash));
  if (!right) {
    await db.query(sql.unsafe`UPDATE portal_sign_in_codes SET tries = tries + 1 WHERE id = ${live.id}`);
    return null;
  }
  await db.query(sql.unsafe`UPDATE portal_sign_in_codes SET used_at = now() WHERE id = ${live.id}`);
  return live.customer_id;
}

/**
 * Mails the code to the renter. Without SMTP (the development mailer sends nothing) the code is
 * written to the server's output instead, so a developer can still get in.
 */
export async function mailCode(mailer: Mailer, to: string, code: string): Promise<void> {
  const message = {
    id: randomUUID(),
    to,
    subject: `Your sign-in code: ${code}`,
    text: [
      `Your code to open your account in the customer portal is ${code}.`,
      '',
      `It works once, for ${CODE_MINUTES} minutes.`,
      'If you did not just try to sign in, someone typed your email address: you need do nothing, they cannot get in without this code.',
    ].join('\n'),
  };
  if (mailer.transport === 'development') {
    process.stdout.write(`Portal sign-in code for ${to}: ${code} (no SMTP_URL is set, so it was not mailed)\n`);
    return;
  }
  await mailer.send(message);
}
