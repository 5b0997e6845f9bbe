// Two-factor sign-in of staff (TOTP with recovery codes): enrolling, signing in with a code, what
// refuses a code (wrong, replayed, used recovery code, too many), turning it off, new recovery
// codes, an owner requiring it and resetting a member's, and that the secret and the recovery
// codes never show anywhere but in the one answer that hands them over. Codes are made here with
// otpauth from the secret the enrolment answers, as an authenticator app would.

import { randomUUID } from 'node:crypto';
import type { StaffRole } from '@storage/contracts/enums';
import type { StaffMember } from '@storage/contracts/staff';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { Secret, TOTP } from 'otpauth';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const PERIOD_MS = 30_000;
const SETUP_REFUSAL = 'Two-factor sign-in is required: set it up in Settings → Security';

/**
 * The code of the step `offset` steps from now (the server takes one step either side). Near the
 * end of a step it waits for the next, so the step a code was made for is still in reach when the
 * server checks it.
 */
async function codeAt(secret: string, offset = 0): Promise<string> {
  if (PERIOD_MS - (Date.now() % PERIOD_MS) < 2_000) await new Promise((resolve) => setTimeout(resolve, PERIOD_MS - (Date.now() % PERIOD_MS) + 50));
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + offset * PERIOD_MS });
}

/** A 6-digit code that none of the steps in reach gives. */
async function wrongCode(secret: string): Promise<string> {
  const inReach = new Set([await codeAt(secret, -1), await codeAt(secret, 0), await codeAt(secret, 1)]);
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!inReach.has(code)) return code;
  }
}

interface Member {
  id: string;
  email: string;
  password: string;
  /** A session opened before two-factor sign-in was on. */
  cookie: string;
}

interface Enrolled extends Member {
  secret: string;
  recoveryCodes: string[];
}

describe('two-factor sign-in for staff', () => {
  let platform: TestPlatform;
  let owner: Enrolled;

  const inject = (cookie: string | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, ip = '10.9.0.1') =>
    platform.api.app.inject({ method, url, ...(payload ? { payload } : {}), headers: cookie ? { cookie } : {}, remoteAddress: ip });
  const login = (email: string, password: string, ip = '10.9.0.1') => inject(undefined, 'POST', '/api/auth/login', { email, password }, ip);
  const cookieOf = (response: { headers: Record<string, unknown> }) => sessionCookie(response.headers['set-cookie'] as string[] | string);

  async function member(role: StaffRole = 'clerk'): Promise<Member> {
    const { email, password } = await platform.createStaff(role);
    const response = await login(email, password);
    expect(response.statusCode).toBe(200);
    const cookie = cookieOf(response);
    return { id: (await inject(cookie, 'GET', '/api/auth/user')).json().id, email, password, cookie };
  }

  async function enrol(who: Member): Promise<Enrolled> {
    const started = await inject(who.cookie, 'POST', '/api/auth/two-factor/enrolment', {});
    expect(started.statusCode, started.body).toBe(200);
    const { secret } = started.json() as { secret: string };
    // The step before now: the sign-ins that follow use now's and the next's.
    const confirmed = await inject(who.cookie, 'POST', '/api/auth/two-factor/enrolment/confirm', { code: await codeAt(secret, -1) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { ...who, secret, recoveryCodes: confirmed.json().recoveryCodes };
  }

  /** Password, then code: the answers of both steps. */
  async function signInWithCode(who: { email: string; password: string }, code: string, ip = '10.9.0.1') {
    const first = await login(who.email, who.password, ip);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ twoFactorRequired: true });
    return inject(cookieOf(first), 'POST', '/api/auth/two-factor', { code }, ip);
  }

  const codeFailures = (account: string) =>
    platform.api.pool.oneFirst(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::int AS n FROM sign_in_failures WHERE kind = 'staff-code' AND account = ${account}`);

  beforeAll(async () => {
    platform = await startTestPlatform();
    owner = await enrol(await member('owner'));
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('enrols: the secret as a QR code, a URI and base32; a current code turns it on and answers 10 recovery codes once', async () => {
    const clerk = await member('clerk');
    expect((await inject(clerk.cookie, 'GET', '/api/auth/two-factor/status')).json()).toEqual({ enabled: false, required: false, recoveryCodesLeft: null });

    const started = await inject(clerk.cookie, 'POST', '/api/auth/two-factor/enrolment', {});
    expect(started.statusCode).toBe(200);
    const { otpauthUri, secret, qrSvg, expiresAt } = started.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    const uri = new URL(otpauthUri);
    expect(decodeURIComponent(uri.pathname)).toContain(clerk.email);
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ secret, algorithm: 'SHA1', digits: '6', period: '30' });
    expect(qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);

    const wrong = await inject(clerk.cookie, 'POST', '/api/auth/two-factor/enrolment/confirm', { code: await wrongCode(secret) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: 'code: is not the current code from your authenticator app', field: 'code' });
    const notDigits = await inject(clerk.cookie, 'POST', '/api/auth/two-factor/enrolment/confirm', { code: 'abc' });
    expect(notDigits.json().field).toBe('code');
    expect((await inject(clerk.cookie, 'GET', '/api/auth/user')).json().twoFactorEnabled).toBe(false);

    const confirmed = await inject(clerk.cookie, 'POST', '/api/auth/two-factor/enrolment/confirm', { code: await codeAt(secret) });
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes } = confirmed.json() as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    expect((await inject(clerk.cookie, 'GET', '/api/auth/two-factor/status')).json()).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    expect((await inject(clerk.cookie, 'GET', '/api/auth/user')).json()).toMatchObject({ twoFactorEnabled: true, twoFactorSetupRequired: false });
    // The session it was set up in stays signed in; setting it up again needs it off first.
    expect((await inject(clerk.cookie, 'POST', '/api/auth/two-factor/enrolment', {})).statusCode).toBe(409);
    expect((await inject(clerk.cookie, 'POST', '/api/auth/two-factor/enrolment/confirm', { code: await codeAt(secret, 1) })).statusCode).toBe(409);

    const history = (await inject(owner.cookie, 'GET', `/api/history/staff/${clerk.id}`)).json();
    expect(history.events.map((e: { description: string }) => e.description)).toEqual(['Staff registered', 'Staff two factor enabled']);
    expect(history.events[1].changes).toEqual([]);
    const listed = (await inject(owner.cookie, 'GET', '/api/staff?pageSize=100')).json() as StaffMember[];
    expect(listed.find((m) => m.id === clerk.id)?.twoFactorEnabled).toBe(true);
    expect(listed.find((m) => m.id === owner.id)?.twoFactorEnabled).toBe(true);
  });

  it('signs in with the password, then a current code; the password alone opens no session', async () => {
    const clerk = await enrol(await member('clerk'));
    const first = await login(clerk.email, clerk.password);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ twoFactorRequired: true });
    const pending = cookieOf(first);
    expect((await inject(pending, 'GET', '/api/auth/user')).statusCode).toBe(401);
    expect((await inject(pending, 'GET', '/api/customers')).statusCode).toBe(401);

    const second = await inject(pending, 'POST', '/api/auth/two-factor', { code: ` ${await codeAt(clerk.secret)} ` });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ id: clerk.id, email: clerk.email, twoFactorEnabled: true, twoFactorSetupRequired: false });
    const session = cookieOf(second);
    expect((await inject(session, 'GET', '/api/customers')).statusCode).toBe(200);
    expect(second.cookies.some((c) => c.name === 'storage_device')).toBe(true);

    // No password given first (or the marker of another browser): nothing to check a code against.
    const noPassword = await inject(undefined, 'POST', '/api/auth/two-factor', { code: await codeAt(clerk.secret, 1) });
    expect(noPassword.statusCode).toBe(401);
    expect(noPassword.json().message).toBe('Your sign-in timed out: enter your email and password again');
    // The marker ended with the session it opened.
    expect((await inject(session, 'POST', '/api/auth/two-factor', { code: await codeAt(clerk.secret, 1) })).statusCode).toBe(401);
  });

  it('refuses a wrong code with 401 and counts it; a code once accepted is refused again', async () => {
    const clerk = await enrol(await member('clerk'));
    const wrong = await signInWithCode(clerk, await wrongCode(clerk.secret));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toContain('That code is not right');
    expect(await codeFailures(clerk.id)).toBe(1);

    // The code that confirmed the enrolment (the step before now) is spent already.
    expect((await signInWithCode(clerk, await codeAt(clerk.secret, -1))).statusCode).toBe(401);
    const code = await codeAt(clerk.secret);
    expect((await signInWithCode(clerk, code)).statusCode).toBe(200);
    const replayed = await signInWithCode(clerk, code);
    expect(replayed.statusCode).toBe(401);
    expect(await codeFailures(clerk.id)).toBe(3);
  });

  it('stops the code step of an account after 10 wrong codes, from any address, even for the right code', async () => {
    const clerk = await enrol(await member('clerk'));
    const wrong = await wrongCode(clerk.secret);
    for (let n = 0; n < 10; n++) expect((await signInWithCode(clerk, wrong, `10.9.1.${n}`)).statusCode).toBe(401);
    const refused = await signInWithCode(clerk, await codeAt(clerk.secret), '10.9.2.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many wrong codes\. Try again in \d+ minutes\.$/);
  });

  it('takes a recovery code (as typed, any case) once, instead of a code from the app', async () => {
    const clerk = await enrol(await member('clerk'));
    const [code] = clerk.recoveryCodes;
    const used = await signInWithCode(clerk, ` ${code!.toUpperCase()} `);
    expect(used.statusCode, used.body).toBe(200);
    expect((await inject(cookieOf(used), 'GET', '/api/auth/two-factor/status')).json().recoveryCodesLeft).toBe(9);
    expect((await signInWithCode(clerk, code!)).statusCode).toBe(401);
    expect((await signInWithCode(clerk, clerk.recoveryCodes[1]!.replace('-', ''))).statusCode).toBe(200);
  });

  it('makes new recovery codes with a current code; the old ones stop working', async () => {
    const clerk = await enrol(await member('clerk'));
    const wrong = await inject(clerk.cookie, 'POST', '/api/auth/two-factor/recovery-codes', { code: await wrongCode(clerk.secret) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().field).toBe('code');
    const renewed = await inject(clerk.cookie, 'POST', '/api/auth/two-factor/recovery-codes', { code: await codeAt(clerk.secret) });
    expect(renewed.statusCode).toBe(200);
    const { recoveryCodes } = renewed.json() as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(recoveryCodes.some((code) => clerk.recoveryCodes.includes(code))).toBe(false);
    expect((await signInWithCode(clerk, clerk.recoveryCodes[0]!)).statusCode).toBe(401);
    expect((await signInWithCode(clerk, recoveryCodes[0]!)).statusCode).toBe(200);
  });

  it('turns it off with the password and a code: the password alone signs in again, and the secret is deleted', async () => {
    const clerk = await enrol(await member('clerk'));
    const wrongPassword = await inject(clerk.cookie, 'POST', '/api/auth/two-factor/turn-off', { password: 'not it', code: await codeAt(clerk.secret) });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().field).toBe('password');
    const wrongCodeAnswer = await inject(clerk.cookie, 'POST', '/api/auth/two-factor/turn-off', {
      password: clerk.password,
      code: await wrongCode(clerk.secret),
    });
    expect(wrongCodeAnswer.statusCode).toBe(400);
    expect(wrongCodeAnswer.json().field).toBe('code');
    expect((await inject(clerk.cookie, 'GET', '/api/auth/two-factor/status')).json().enabled).toBe(true);

    const off = await inject(clerk.cookie, 'POST', '/api/auth/two-factor/turn-off', { password: clerk.password, code: clerk.recoveryCodes[0] });
    expect(off.statusCode, off.body).toBe(204);
    expect((await inject(clerk.cookie, 'GET', '/api/auth/two-factor/status')).json()).toEqual({ enabled: false, required: false, recoveryCodesLeft: null });
    expect((await inject(clerk.cookie, 'POST', '/api/auth/two-factor/turn-off', { password: clerk.password, code: '123456' })).statusCode).toBe(409);
    const signedIn = await login(clerk.email, clerk.password);
    expect(signedIn.json()).toMatchObject({ id: clerk.id, twoFactorEnabled: false });
    const rows = await platform.api.pool.oneFirst(sql.unsafe`SELECT count(*)::int AS n FROM staff_two_factor WHERE staff_id = ${clerk.id}`);
    expect(rows).toBe(0);
    const history = (await inject(owner.cookie, 'GET', `/api/history/staff/${clerk.id}`)).json();
    expect(history.events.map((e: { description: string }) => e.description)).toEqual([
      'Staff registered',
      'Staff two factor enabled',
      'Staff two factor disabled',
    ]);
  });

  it('an owner resets a member’s two-factor sign-in (a lost phone); only owners may', async () => {
    const clerk = await enrol(await member('clerk'));
    const manager = await member('manager');
    expect((await inject(manager.cookie, 'POST', `/api/staff/${clerk.id}/two-factor/reset`, {})).statusCode).toBe(403);
    expect((await inject(clerk.cookie, 'POST', `/api/staff/${clerk.id}/two-factor/reset`, {})).statusCode).toBe(403);

    const reset = await inject(owner.cookie, 'POST', `/api/staff/${clerk.id}/two-factor/reset`, {});
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ id: clerk.id, twoFactorEnabled: false });
    expect((await login(clerk.email, clerk.password)).json()).toMatchObject({ id: clerk.id, twoFactorEnabled: false });
    expect(await platform.api.pool.oneFirst(sql.unsafe`SELECT count(*)::int AS n FROM staff_two_factor WHERE staff_id = ${clerk.id}`)).toBe(0);
    // Nothing to reset: nothing recorded.
    expect((await inject(owner.cookie, 'POST', `/api/staff/${clerk.id}/two-factor/reset`, {})).statusCode).toBe(200);
    const events = (await inject(owner.cookie, 'GET', `/api/history/staff/${clerk.id}`)).json().events as { description: string; actor: string }[];
    expect(events.map((e) => e.description)).toEqual(['Staff registered', 'Staff two factor enabled', 'Staff two factor reset']);
    expect(events[2]!.actor).toBe('Test owner');
    expect((await inject(owner.cookie, 'POST', `/api/staff/${randomUUID()}/two-factor/reset`, {})).statusCode).toBe(404);
  });

  it('an auditor (read-only) sets up, and turns off, their own two-factor sign-in, and changes nobody else’s', async () => {
    const auditor = await enrol(await member('auditor'));
    expect((await inject(auditor.cookie, 'GET', '/api/auth/two-factor/status')).json().enabled).toBe(true);
    expect((await signInWithCode(auditor, await codeAt(auditor.secret))).statusCode).toBe(200);
    expect((await inject(auditor.cookie, 'POST', '/api/auth/two-factor/recovery-codes', { code: await codeAt(auditor.secret, 1) })).statusCode).toBe(200);
    const off = await inject(auditor.cookie, 'POST', '/api/auth/two-factor/turn-off', { password: auditor.password, code: auditor.recoveryCodes[0] });
    expect(off.statusCode).toBe(400); // those codes were replaced
    expect(
      (await inject(auditor.cookie, 'POST', '/api/auth/two-factor/turn-off', { password: auditor.password, code: await codeAt(auditor.secret, -1) }))
        .statusCode,
    ).toBe(400); // the step before now was used to set it up
    expect((await inject(auditor.cookie, 'PUT', '/api/settings/security', { twoFactorRequired: true })).statusCode).toBe(403);
    expect((await inject(auditor.cookie, 'POST', `/api/staff/${owner.id}/two-factor/reset`, {})).statusCode).toBe(403);
  });

  it('never shows the secret or a recovery code after the answers that hand them over: not in events, history, the audit log, the read model or any answer', async () => {
    const clerk = await enrol(await member('clerk'));
    const signedIn = await signInWithCode(clerk, clerk.recoveryCodes[9]!);
    expect(signedIn.statusCode).toBe(200);
    const session = cookieOf(signedIn);
    const secrets = [clerk.secret, ...clerk.recoveryCodes, ...clerk.recoveryCodes.map((code) => code.replace('-', ''))];
    const leaks = (text: string) => secrets.filter((secret) => text.includes(secret));

    const events = await platform.api.store.readAll({ limit: 100_000 });
    expect(events.some((e) => e.type === 'staff_two_factor_enabled' && e.data.staffId === clerk.id)).toBe(true);
    expect(leaks(JSON.stringify(events.map((e) => [e.type, e.data, e.metadata])))).toEqual([]);
    const answers = [
      signedIn.body,
      (await inject(session, 'GET', '/api/auth/user')).body,
      (await inject(session, 'GET', '/api/auth/two-factor/status')).body,
      (await inject(owner.cookie, 'GET', `/api/history/staff/${clerk.id}`)).body,
      (await inject(owner.cookie, 'GET', '/api/audit/events?pageSize=200')).body,
      (await inject(owner.cookie, 'GET', '/api/audit/events.csv')).body,
      (await inject(owner.cookie, 'GET', '/api/staff?pageSize=100')).body,
      (await inject(owner.cookie, 'GET', '/api/activities?pageSize=200')).body,
    ];
    expect(leaks(answers.join('\n'))).toEqual([]);

    // Every table, the two-factor table's own rows too: the secret is encrypted, the codes hashed.
    const tables = await platform.api.pool.anyFirst(sql.type(z.object({ table_name: z.string() }))`
      SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`);
    expect(tables).toContain('staff_two_factor');
    const rows: string[] = [];
    for (const table of tables) {
      const found = await platform.api.pool.anyFirst(
        sql.type(z.object({ row: z.unknown() }))`SELECT to_jsonb(t) AS row FROM ${sql.identifier(['public', table])} t`,
      );
      rows.push(JSON.stringify(found));
    }
    expect(leaks(rows.join('\n'))).toEqual([]);
    const stored = await platform.api.pool.one(sql.type(z.object({ secret_ciphertext: z.string(), recovery_code_hashes: z.array(z.string()) }))`
      SELECT secret_ciphertext, recovery_code_hashes FROM staff_two_factor f JOIN staff s ON s.two_factor_id = f.factor_id WHERE s.id = ${clerk.id}`);
    expect(stored.secret_ciphertext).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored.recovery_code_hashes).toHaveLength(9);
  });

  it('an owner requires it of all staff: a member without it may only set it up, then works as before', async () => {
    const unenrolledOwner = await member('owner');
    const refused = await inject(unenrolledOwner.cookie, 'PUT', '/api/settings/security', { twoFactorRequired: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().field).toBe('twoFactorRequired');
    const manager = await member('manager');
    expect((await inject(manager.cookie, 'PUT', '/api/settings/security', { twoFactorRequired: true })).statusCode).toBe(403);
    const signedInBefore = await member('clerk');

    try {
      const required = await inject(owner.cookie, 'PUT', '/api/settings/security', { twoFactorRequired: true });
      expect(required.statusCode).toBe(200);
      expect(required.json()).toEqual({ twoFactorRequired: true });
      expect((await inject(manager.cookie, 'GET', '/api/settings/security')).statusCode).toBe(403);
      expect((await inject(owner.cookie, 'GET', '/api/settings/security')).json()).toEqual({ twoFactorRequired: true });

      // A session opened before, and a new sign-in with the password: only setting it up is open.
      const clerk = await platform.createStaff('clerk');
      const signedIn = await login(clerk.email, clerk.password);
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json()).toMatchObject({ email: clerk.email, twoFactorEnabled: false, twoFactorSetupRequired: true });
      const cookie = cookieOf(signedIn);
      for (const session of [cookie, signedInBefore.cookie]) {
        for (const [method, url] of [
          ['GET', '/api/customers'],
          ['GET', '/api/settings'],
          ['PUT', '/api/auth/password'],
        ] as const) {
          const answer = await inject(session, method, url, method === 'PUT' ? { currentPassword: 'x', newPassword: 'y', confirmPassword: 'y' } : undefined);
          expect(answer.statusCode, `${method} ${url}`).toBe(403);
          expect(answer.json()).toEqual({ message: SETUP_REFUSAL });
        }
        expect((await inject(session, 'GET', '/api/auth/user')).json().twoFactorSetupRequired).toBe(true);
        expect((await inject(session, 'GET', '/api/auth/two-factor/status')).json()).toEqual({ enabled: false, required: true, recoveryCodesLeft: null });
      }
      const enrolled = await enrol({ id: signedIn.json().id, email: clerk.email, password: clerk.password, cookie });
      expect((await inject(cookie, 'GET', '/api/customers')).statusCode).toBe(200);
      expect((await inject(cookie, 'GET', '/api/auth/user')).json()).toMatchObject({ twoFactorEnabled: true, twoFactorSetupRequired: false });
      expect((await signInWithCode(enrolled, await codeAt(enrolled.secret))).statusCode).toBe(200);
      expect((await inject(signedInBefore.cookie, 'GET', '/api/customers')).statusCode).toBe(403);

      // Reset by an owner: set up again at the next sign-in.
      expect((await inject(owner.cookie, 'POST', `/api/staff/${enrolled.id}/two-factor/reset`, {})).statusCode).toBe(200);
      expect((await login(clerk.email, clerk.password)).json()).toMatchObject({ twoFactorSetupRequired: true });
    } finally {
      expect((await inject(owner.cookie, 'PUT', '/api/settings/security', { twoFactorRequired: false })).json()).toEqual({ twoFactorRequired: false });
    }
    expect((await inject(signedInBefore.cookie, 'GET', '/api/customers')).statusCode).toBe(200);
    const settingsEvents = (await platform.api.store.readStream('settings-business')).map((e) => [e.type, e.data]);
    expect(settingsEvents).toEqual([
      ['security_settings_updated', { scope: 'business', twoFactorRequired: true }],
      ['security_settings_updated', { scope: 'business', twoFactorRequired: false }],
    ]);
  });
});
