import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type SubmitReservationCommand, SubmitReservationRequest } from '@storage/contracts/public';
import type { Mailer } from '@storage/platform/mail/port';
import { type CommonQueryMethods, sql } from 'slonik';
import { z } from 'zod';

// An online reservation starts as a request: the visitor confirms it from a link mailed to the
// email they typed, and only then is the unit held and the customer made (as the reservation
// always did). A visitor typing made-up or someone else's addresses holds nothing and makes no
// record; the link reaches only the mailbox's owner. Each email gets a few links an hour (the
// mail cannot be turned on a stranger), and each renter a few units held online at once.

/** How long a mailed link confirms its request. */
export const CONFIRM_HOURS = 24;
/** Links mailed to one email in an hour. */
export const REQUESTS_PER_EMAIL_PER_HOUR = 3;
/** Units one renter (by email or phone) may hold online at once; more at the desk. */
export const ONLINE_HOLDS_PER_RENTER = 2;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const digitsOf = (phone: string) => phone.replace(/\D/g, '');

export type RecordedRequest = { token: string; confirmBy: string } | { retryInMinutes: number };

/** Records the request and its link's token, unless the email had its links for the hour. */
export async function recordRequest(db: CommonQueryMethods, request: SubmitReservationCommand): Promise<RecordedRequest> {
  const email = request.customerData.email.toLowerCase();
  const waitMs = await db.maybeOneFirst(sql.type(z.object({ wait_ms: z.number() }))`
    SELECT greatest(ceil(extract(epoch FROM created_at + interval '1 hour' - now()) * 1000), 0)::int8 AS wait_ms
    FROM online_reservation_requests WHERE email = ${email} AND created_at > now() - interval '1 hour'
    ORDER BY created_at DESC OFFSET ${REQUESTS_PER_EMAIL_PER_HOUR - 1} LIMIT 1`);
  if (waitMs !== null) return { retryInMinutes: Math.max(1, Math.ceil(waitMs / 60_000)) };
  await db.query(sql.unsafe`DELETE FROM online_reservation_requests WHERE confirmed_at IS NULL AND expires_at < now()`);
  const token = randomBytes(32).toString('base64url');
  const confirmBy = await db.oneFirst(sql.type(z.object({ expires_at: z.string() }))`
    INSERT INTO online_reservation_requests (id, reservation_id, token_hash, email, phone_digits, request, expires_at)
    VALUES (${randomUUID()}, ${randomUUID()}, ${hashOf(token)}, ${email}, ${digitsOf(request.customerData.phone)},
            ${sql.jsonb(request as unknown as Parameters<typeof sql.jsonb>[0])}, now() + make_interval(hours => ${CONFIRM_HOURS}))
    RETURNING to_json(expires_at)#>>'{}' AS expires_at`);
  return { token, confirmBy };
}

const RequestRow = z.object({ id: z.string(), reservation_id: z.string(), request: z.unknown(), expired: z.boolean(), confirmed: z.boolean() });

export type PendingRequest = { id: string; reservationId: string; request: SubmitReservationCommand; expired: boolean; confirmed: boolean };

/** The request a link's token confirms, or null for a token no request has. */
export async function requestOfToken(db: CommonQueryMethods, token: string): Promise<PendingRequest | null> {
  const row = await db.maybeOne(sql.type(RequestRow)`
    SELECT id::text, reservation_id::text, request, expires_at <= now() AS expired, confirmed_at IS NOT NULL AS confirmed
    FROM online_reservation_requests WHERE token_hash = ${hashOf(token)}`);
  if (!row) return null;
  return {
    id: row.id,
    reservationId: row.reservation_id,
    request: SubmitReservationRequest.parse(row.request),
    expired: row.expired,
    confirmed: row.confirmed,
  };
}

export async function markConfirmed(db: CommonQueryMethods, id: string): Promise<void> {
  await db.query(sql.unsafe`UPDATE online_reservation_requests SET confirmed_at = coalesce(confirmed_at, now()) WHERE id = ${id}`);
}

/** The units the renter (their email, or their phone's digits) holds online now, other than `except`. */
export async function onlineHolds(db: CommonQueryMethods, request: SubmitReservationCommand, except: string): Promise<number> {
  const email = request.customerData.email.toLowerCase();
  const digits = digitsOf(request.customerData.phone);
  return db.oneFirst(sql.type(z.object({ n: z.number() }))`
    SELECT count(*)::int8 AS n FROM reservations
    WHERE status = 'submitted' AND id <> ${except} AND contact IS NOT NULL
      AND (lower(contact->>'email') = ${email} OR (${digits} <> '' AND regexp_replace(contact->>'phone', '\\D', '', 'g') = ${digits}))`);
}

/**
 * Mails the link. Without SMTP (the development mailer sends nothing) the link is written to the
 * server's output instead, so a developer can still confirm.
 */
export async function mailConfirmationLink(mailer: Mailer, to: string, link: string, unit: string, moveInDate: string): Promise<void> {
  const message = {
    id: randomUUID(),
    to,
    subject: 'Confirm your storage unit reservation',
    text: [
      `You asked to reserve unit ${unit}, moving in on ${moveInDate}.`,
      '',
      `Confirm it here to hold the unit for you: ${link}`,
      '',
      `The link works for ${CONFIRM_HOURS} hours. Until you confirm, the unit is not held and anyone may rent it.`,
      'If you did not ask for this, ignore this message: nothing is reserved and no account is made.',
    ].join('\n'),
  };
  if (mailer.transport === 'development') {
    process.stdout.write(`Reservation confirmation link for ${to}: ${link} (no SMTP_URL is set, so it was not mailed)\n`);
    return;
  }
  await mailer.send(message);
}
