import { randomUUID } from 'node:crypto';
import { registerStaff } from '@storage/domain/auth/staff';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('staff sign-in', () => {
  let platform: TestPlatform;
  const email = `manager-${randomUUID().slice(0, 8)}@staff.test`;
  const password = 'a long enough password';

  beforeAll(async () => {
    platform = await startTestPlatform();
    const ctx = { store: platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    const { position } = await registerStaff({ ...ctx, pool: platform.api.pool }, { email, firstName: 'Mia', lastName: 'Manager', role: 'manager', password });
    await platform.api.afterAppend(position!, 10_000);
  });
  afterAll(async () => {
    await platform?.close();
  });

  const login = (body: unknown, ip = '10.0.0.1') =>
    platform.api.app.inject({ method: 'POST', url: '/api/auth/login', payload: body as object, remoteAddress: ip });

  it('signs in with the right password and answers the current user', async () => {
    const response = await login({ email: email.toUpperCase(), password });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === 'storage_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    const user = await platform.api.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: sessionCookie(response.headers['set-cookie']) } });
    expect(user.statusCode).toBe(200);
    expect(user.json()).toEqual({
      id: expect.any(String),
      email,
      firstName: 'Mia',
      lastName: 'Manager',
      profileImageUrl: null,
      role: 'manager',
      twoFactorEnabled: false,
      twoFactorSetupRequired: false,
    });
  });

  it('stores only a scrypt hash of the password, in the credentials table, never in the event', async () => {
    const [registered] = (await platform.api.store.readAll({ limit: 1000 })).filter((e) => e.type === 'staff_registered' && e.data.email === email);
    expect(JSON.stringify([registered!.data, registered!.metadata])).not.toContain(password);
    expect(JSON.stringify(registered!.data)).not.toContain('scrypt');
    expect(registered!.data).not.toHaveProperty('passwordHash');
    const hash = await platform.api.pool.oneFirst(
      sql.type(
        z.object({ password_hash: z.string() }),
      )`SELECT password_hash FROM staff_credentials WHERE credential_id = ${String(registered!.data.credentialId)}`,
    );
    expect(hash).toMatch(/^scrypt\$/);
  });

  it('answers 401 when signed out, and the same message for a wrong password or an unknown email', async () => {
    expect((await platform.api.app.inject({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    const wrong = await login({ email, password: 'nope' }, '10.0.0.2');
    const unknown = await login({ email: 'nobody@staff.test', password }, '10.0.0.2');
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ message: 'Invalid email or password' });
  });

  it('validates the login body', async () => {
    const response = await login({ email: 'x' }, '10.0.0.3');
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('email');
  });

  /** Another member, so the limits one test fills never touch another's sign-ins. */
  async function member() {
    const other = `member-${randomUUID().slice(0, 8)}@staff.test`;
    const ctx = { store: platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    const { position } = await registerStaff(
      { ...ctx, pool: platform.api.pool },
      { email: other, firstName: 'Ned', lastName: 'Member', role: 'clerk', password },
    );
    await platform.api.afterAppend(position!, 10_000);
    return other;
  }
  const deviceCookie = (response: { cookies: Array<{ name: string; value: string }> }) => {
    const device = response.cookies.find((c) => c.name === 'storage_device');
    if (!device) throw new Error('no device cookie');
    return `storage_device=${device.value}`;
  };
  const loginWith = (body: unknown, ip: string, cookie: string) =>
    platform.api.app.inject({ method: 'POST', url: '/api/auth/login', payload: body as object, remoteAddress: ip, headers: { cookie } });

  it('rate-limits repeated failed sign-ins for one account from one address', async () => {
    const other = await member();
    // From a browser the account signed in from before: the account's slow-down spares it, the per-address limit does not.
    const device = deviceCookie(await login({ email: other, password }, '10.0.0.9'));
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await loginWith({ email: other, password: `wrong-${i}` }, '10.0.0.9', device)).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes.slice(10)).toEqual([429, 429]);
    const limited = await loginWith({ email: other, password }, '10.0.0.9', device);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Too many sign-in attempts/);
  });

  it('slows guesses spread over addresses after 5 failures, with a rising delay, but never the account’s own browser', async () => {
    const other = await member();
    const signedIn = await login({ email: other, password }, '10.3.0.1');
    expect(signedIn.statusCode).toBe(200);
    const device = deviceCookie(signedIn);
    expect(signedIn.cookies.find((c) => c.name === 'storage_device')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    // 60 guesses from 6 addresses at once, as fast as they come: only the first few are checked.
    const answers: number[] = [];
    for (let i = 0; i < 60; i++) answers.push((await login({ email: other, password: `guess-${i}` }, `10.3.1.${(i % 6) + 1}`)).statusCode);
    expect(answers.filter((c) => c === 401).length).toBeLessThanOrEqual(6);
    expect(answers.slice(6).every((c) => c === 429)).toBe(true);
    const slowed = await login({ email: other, password }, '10.3.2.1');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().message).toMatch(/^Too many sign-in attempts for this account\. Try again in \d+ seconds?\.$/);
    // The account's own browser signs in at once with the right password, from any address.
    const own = await loginWith({ email: other, password }, '10.3.3.1', device);
    expect(own.statusCode, own.body).toBe(200);
    // Once the delay has passed since the last failure, the next attempt is checked; each failure doubles the delay, up to 30 s.
    const failures = () =>
      platform.api.pool.oneFirst(
        sql.type(z.object({ n: z.number() }))`SELECT count(*)::int8 AS n FROM sign_in_failures WHERE kind = 'staff' AND account = ${other}`,
      );
    const before = await failures();
    await platform.api.pool.query(
      sql.unsafe`UPDATE sign_in_failures SET failed_at = failed_at - interval '40 seconds' WHERE kind = 'staff' AND account = ${other}`,
    );
    expect((await login({ email: other, password: 'one more guess' }, '10.3.4.1')).statusCode).toBe(401);
    expect(await failures()).toBe(before + 1);
    const next = await login({ email: other, password: 'and another' }, '10.3.4.2');
    expect(next.statusCode).toBe(429);
    expect(Number(/in (\d+) second/.exec(next.json().message)?.[1])).toBeGreaterThan(1);
    // A device cookie of another account spares nothing.
    expect((await loginWith({ email: other, password }, '10.3.4.3', deviceCookie(await login({ email, password }, '10.3.4.4')))).statusCode).toBe(429);
  });

  it('redirects /api/login to /login and /api/logout to / after ending the session', async () => {
    const toLogin = await platform.api.app.inject({ method: 'GET', url: '/api/login' });
    expect([toLogin.statusCode, toLogin.headers.location]).toEqual([302, '/login']);
    const signedIn = await login({ email, password }, '10.0.0.4');
    const cookie = sessionCookie(signedIn.headers['set-cookie']);
    const out = await platform.api.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect([out.statusCode, out.headers.location]).toEqual([302, '/']);
    const cleared = out.cookies.find((c) => c.name === 'storage_session');
    expect(cleared?.value ?? '').toBe('');
    const after = await platform.api.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: `storage_session=${cleared?.value ?? ''}` } });
    expect(after.statusCode).toBe(401);
  });
});
