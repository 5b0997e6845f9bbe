import { randomUUID } from 'node:crypto';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { mailText, startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The portal gate's mailed code, through a real SMTP server: once an email's gate has seen a
// failure from elsewhere (or a few from the same address), the phone digits alone open no session;
// the right digits mail a one-time code to the email on file, and only that code opens it. A
// guesser spreading over addresses gets nothing but mail sent to the renter; the renter is never
// locked out.

let nextIp = 1;
const freshIp = () => `10.44.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

describe('the portal gate with mailed codes', () => {
  let platform: TestPlatform;
  let smtp: TestSmtpServer;
  let staff: string;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    platform = await startTestPlatform({ billing: false, config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, mailFrom: 'Gate Storage <office@gate.test>' } });
    staff = await platform.signIn('owner');
  });
  afterAll(async () => {
    await platform?.close();
    await smtp?.close();
  });

  async function renter() {
    const tag = randomUUID().slice(0, 8);
    const digits = String(1000 + (nextIp % 9000));
    const email = `gate-${tag}@example.com`;
    const made = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      headers: { cookie: staff },
      payload: { firstName: 'Gita', lastName: `Gate${tag}`, email, phone: `555-${digits}` },
    });
    expect(made.statusCode, made.body).toBe(201);
    const wrong = String((Number(digits) + 1) % 10000).padStart(4, '0');
    return { email, digits, wrong };
  }
  const verify = (email: string, phoneLast4: string, ip = freshIp()) =>
    platform.api.app.inject({ method: 'POST', url: '/api/customer/verify', payload: { email, phoneLast4 }, remoteAddress: ip });
  const verifyCode = (email: string, code: string, ip = freshIp()) =>
    platform.api.app.inject({ method: 'POST', url: '/api/customer/verify-code', payload: { email, code }, remoteAddress: ip });
  const mailsTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));
  /** The code of the newest mail to `email`. */
  const newestCode = (email: string) => {
    const mail = mailsTo(email).at(-1);
    const code = mail && /is (\d{6})\./.exec(mailText(mail.raw))?.[1];
    if (!code) throw new Error(`no code mailed to ${email}`);
    return code;
  };
  const profile = (cookie: string) => platform.api.app.inject({ method: 'GET', url: '/api/customer/profile', headers: { cookie } });

  it('gives a guesser who moves between addresses no session: after one failure, every right guess only mails the renter', async () => {
    const gita = await renter();
    expect((await verify(gita.email, gita.wrong)).statusCode).toBe(401);
    for (let i = 0; i < 3; i++) {
      const right = await verify(gita.email, gita.digits);
      expect(right.statusCode, right.body).toBe(202);
      expect(right.json()).toEqual({ codeSent: true, message: 'We emailed you a 6-digit sign-in code. Enter it to open your account.' });
      expect(right.headers['set-cookie']).toBeUndefined();
    }
    const mails = mailsTo(gita.email);
    expect(mails).toHaveLength(3);
    expect(mails.every((mail) => mail.to.length === 1 && mail.from === 'office@gate.test')).toBe(true);
    expect(mailText(mails[0]!.raw)).toContain('It works once, for 10 minutes.');
    // Nothing of the code is kept but its hash.
    const stored = await platform.api.pool.anyFirst(sql.unsafe`SELECT code_hash FROM portal_sign_in_codes WHERE email = ${gita.email}`);
    expect(stored).not.toContain(newestCode(gita.email));
  });

  it('opens the renter’s session with the newest code, once; an earlier code no longer works', async () => {
    const gita = await renter();
    expect((await verify(gita.email, gita.wrong)).statusCode).toBe(401);
    expect((await verify(gita.email, gita.digits)).statusCode).toBe(202);
    const first = newestCode(gita.email);
    expect((await verify(gita.email, gita.digits)).statusCode).toBe(202);
    const second = newestCode(gita.email);
    if (first !== second) expect((await verifyCode(gita.email, first)).statusCode).toBe(401);
    const opened = await verifyCode(gita.email, ` ${second.slice(0, 3)}-${second.slice(3)} `);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ email: gita.email });
    expect((await profile(sessionCookie(opened.headers['set-cookie']))).statusCode).toBe(200);
    const again = await verifyCode(gita.email, second);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ message: 'That code is not right, or it has expired. Ask for a new one.' });
  });

  it('wears a code out after 5 wrong tries, and lets it expire after 10 minutes', async () => {
    const gita = await renter();
    expect((await verify(gita.email, gita.wrong)).statusCode).toBe(401);
    expect((await verify(gita.email, gita.digits)).statusCode).toBe(202);
    const code = newestCode(gita.email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) expect((await verifyCode(gita.email, wrong)).statusCode).toBe(401);
    expect((await verifyCode(gita.email, code)).statusCode).toBe(401);

    expect((await verify(gita.email, gita.digits)).statusCode).toBe(202);
    const fresh = newestCode(gita.email);
    await platform.api.pool.query(sql.unsafe`UPDATE portal_sign_in_codes SET expires_at = now() - interval '1 second' WHERE email = ${gita.email}`);
    expect((await verifyCode(gita.email, fresh)).statusCode).toBe(401);
  });

  it('mails at most 5 codes an hour to one mailbox', async () => {
    const gita = await renter();
    expect((await verify(gita.email, gita.wrong)).statusCode).toBe(401);
    for (let i = 0; i < 5; i++) expect((await verify(gita.email, gita.digits)).statusCode).toBe(202);
    const sixth = await verify(gita.email, gita.digits);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toMatch(/^Too many codes were sent\. Try again in (60|59) minutes\.$/);
    expect(mailsTo(gita.email)).toHaveLength(5);
  });

  it('lets a renter who mistyped twice at their own address in with the digits alone; a third miss there asks for the code', async () => {
    const gita = await renter();
    const home = freshIp();
    for (let i = 0; i < 2; i++) expect((await verify(gita.email, gita.wrong, home)).statusCode).toBe(401);
    expect((await verify(gita.email, gita.digits, home)).statusCode).toBe(200);
    expect((await verify(gita.email, gita.wrong, home)).statusCode).toBe(401);
    expect((await verify(gita.email, gita.digits, home)).statusCode).toBe(202);
    expect(mailsTo(gita.email)).toHaveLength(1);
  });

  it('answers 503 and opens nothing when the mail server refuses the code', async () => {
    const gita = await renter();
    expect((await verify(gita.email, gita.wrong)).statusCode).toBe(401);
    smtp.state.refusing = true;
    try {
      const refused = await verify(gita.email, gita.digits);
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({ message: 'We could not email your sign-in code. Please try again in a few minutes.' });
      expect(refused.headers['set-cookie']).toBeUndefined();
    } finally {
      smtp.state.refusing = false;
    }
  });

  it('refuses a code that is not 6 digits with 400 naming the field', async () => {
    for (const code of ['12345', '1234567', 'abcdef', '']) {
      const response = await verifyCode('someone@example.com', code);
      expect(response.statusCode, code).toBe(400);
      expect(response.json().field).toBe('code');
    }
  });
});
