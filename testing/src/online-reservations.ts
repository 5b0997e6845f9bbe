// An online reservation as a visitor makes it: the request, then the link mailed to the email
// typed (read from the test's real SMTP server), then the confirmation from that link.

import type { TestPlatform } from './platform.ts';
import { mailText, type TestSmtpServer } from './smtp.ts';

/** The token of the newest confirmation link mailed to `email`. */
export function confirmationToken(smtp: TestSmtpServer, email: string): string {
  const mail = smtp.received.filter((m) => m.to.some((to) => to.toLowerCase() === email.toLowerCase())).at(-1);
  const token = mail && /\/reservations\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mailText(mail.raw))?.[1];
  if (!token) throw new Error(`no confirmation link was mailed to ${email}`);
  return token;
}

type Reservation = { unitId: string; customerData: { email: string } & Record<string, unknown> };

/**
 * Asks for the unit and confirms it from the mailed link: the confirmation's answer (200 with the
 * reservation), or the request's refusal when it was refused.
 */
export async function reserveOnline(app: TestPlatform['api']['app'], smtp: TestSmtpServer, body: Reservation, remoteAddress?: string) {
  const asked = await app.inject({ method: 'POST', url: '/api/public/reservations', payload: body, ...(remoteAddress && { remoteAddress }) });
  if (asked.statusCode !== 201) return asked;
  const token = confirmationToken(smtp, body.customerData.email);
  return app.inject({ method: 'POST', url: '/api/public/reservations/confirm', payload: { token }, ...(remoteAddress && { remoteAddress }) });
}
