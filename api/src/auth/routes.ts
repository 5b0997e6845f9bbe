import { createHmac } from 'node:crypto';
import { AuthUser, LoginAnswer, LoginRequest, TwoFactorSignInRequest } from '@storage/contracts/auth';
import { UNKNOWN_USER_HASH, verifyPassword } from '@storage/domain/auth/passwords';
import { findStaffByEmail, type StaffSignInRow } from '@storage/domain/auth/staff';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../deps.ts';
import { OWN_ACCOUNT, TWO_FACTOR_SETUP } from '../http/access.ts';
import { callerOf } from '../http/caller.ts';
import { empty, errorAnswer, file, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { isSameOriginRequest } from '../http/same-origin.ts';
import { closeSessions, openStaffSession, toAuthUser } from '../plugins/session.ts';
import { type AttemptCheck, attemptSignIn, type FailureLimit } from './failure-limit.ts';
import { acceptCode, type SignInFactor, signInFactor, TWO_FACTOR_CODE_LIMIT, twoFactorKeys, twoFactorRequired } from './two-factor.ts';

/**
 * Failed sign-ins only count: 10 for one account from one address (one attacker cannot lock the
 * account out from everywhere else), 20 from one address across accounts (password spraying);
 * across addresses an account is slowed after 5 (a rising delay, at most 30 s between checked
 * attempts: a few guesses a minute instead of thousands an hour), except from a browser that
 * signed in to it before.
 */
const LOGIN_LIMIT: FailureLimit = {
  kind: 'staff',
  windowMinutes: 15,
  perAccountFromIp: 10,
  perIp: 20,
  refusal: (minutes) => `Too many sign-in attempts. Try again in ${minutes} minutes.`,
  slowDown: {
    afterFailures: 5,
    maxSeconds: 30,
    refusal: (seconds) => `Too many sign-in attempts for this account. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  },
};

/** How long after the right password the code may be given, before the password is asked again. */
const TWO_FACTOR_PENDING_MS = 5 * 60 * 1000;
const TWO_FACTOR_EXPIRED = 'Your sign-in timed out: enter your email and password again';
const WRONG_CODE = 'That code is not right: enter the current code from your authenticator app, or an unused recovery code';

/**
 * The browser's proof that it signed in to an account before: an HMAC of the account's email
 * under the session key, kept in a cookie of its own that outlives sign-out (one per account, the
 * last few accounts). It opens nothing; it only spares its account's people the slow-down.
 */
const DEVICE_COOKIE = 'storage_device';
const DEVICE_COOKIE_ACCOUNTS = 5;
const DEVICE_COOKIE_DAYS = 365;
const deviceProof = (key: Buffer, email: string) => createHmac('sha256', key).update(`known-device|${email.toLowerCase()}`).digest('base64url');
const deviceProofs = (request: FastifyRequest): string[] => (request.cookies[DEVICE_COOKIE] ?? '').split('.').filter(Boolean);

/** Keeps this browser's proof that it signed in to the account (the newest few accounts). */
function rememberDevice(request: FastifyRequest, reply: FastifyReply, proof: string) {
  const proofs = [proof, ...deviceProofs(request).filter((p) => p !== proof)].slice(0, DEVICE_COOKIE_ACCOUNTS);
  reply.setCookie(DEVICE_COOKIE, proofs.join('.'), {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'strict',
    secure: 'auto',
    maxAge: DEVICE_COOKIE_DAYS * 24 * 60 * 60,
  });
}

// Shown when a GET /api/logout cannot be told apart from another site's link: signing out then
// takes a click on our own page (a same-origin POST, which SameSite=Lax cookies allow).
const CONFIRM_SIGN_OUT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign out</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem">
<h1>Sign out?</h1>
<form method="post" action="/api/logout"><button type="submit">Sign out</button> <a href="/">Cancel</a></form>
</body></html>`;

const signOutAnswers = {
  200: file('Asks to confirm (another site sent the request): a page whose button signs out', 'text/html'),
};

export async function authRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Staff sign-in', access: 'public' });

  app.post(
    '/api/auth/login',
    {
      config: OWN_ACCOUNT,
      schema: {
        summary: 'Sign in',
        description: 'Opens a staff session: the answer sets the session cookie. Failed attempts are limited per account and address.',
        body: LoginRequest,
        response: {
          200: json(
            'Signed in: the staff member. A member with two-factor sign-in gets `{ twoFactorRequired: true }` instead, and no session until POST /api/auth/two-factor',
            LoginAnswer,
          ),
          401: errorAnswer('Invalid email or password'),
          429: errorAnswer('Too many failed sign-ins: the message says when to try again'),
        },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const proof = deviceProof(deps.sessionKey, email);
      const trusted = deviceProofs(request).includes(proof);
      const outcome = await attemptSignIn(
        deps.pool,
        LOGIN_LIMIT,
        { account: email, ip: request.ip, trusted },
        async (tx): Promise<AttemptCheck<StaffSignInRow, true>> => {
          const staff = await findStaffByEmail(tx, email);
          const matches = await verifyPassword(password, staff?.password_hash ?? UNKNOWN_USER_HASH);
          return staff && matches ? { passed: staff } : { failed: true };
        },
      );
      if ('refused' in outcome) return reply.status(429).send({ message: outcome.refused });
      if ('failed' in outcome) return reply.status(401).send({ message: 'Invalid email or password' });
      const staff = outcome.passed;
      if (staff.two_factor_id) {
        // No session yet: the encrypted cookie only remembers, for a few minutes, whose code to ask for.
        request.session.set('pendingTwoFactor', { staffId: staff.id, until: Date.now() + TWO_FACTOR_PENDING_MS });
        return { twoFactorRequired: true as const };
      }
      await openStaffSession(deps.pool, request, staff.id);
      rememberDevice(request, reply, proof);
      return toAuthUser(staff, { enabled: false, required: await twoFactorRequired(deps.pool) });
    },
  );

  app.post(
    '/api/auth/two-factor',
    {
      config: OWN_ACCOUNT,
      schema: {
        summary: 'Sign in: the two-factor code',
        description:
          "After a right password answered `{ twoFactorRequired: true }`: a current code from the member's authenticator app (each accepted once), or one of their recovery codes (which then stops working), opens the session. Wrong codes are limited per account.",
        body: TwoFactorSignInRequest,
        response: {
          200: json('Signed in: the staff member', AuthUser),
          401: errorAnswer('A wrong code, or no password given in the last few minutes'),
          429: errorAnswer('Too many wrong codes: the message says when to try again'),
        },
      },
    },
    async (request, reply) => {
      const pending = request.session.get('pendingTwoFactor');
      if (!pending || typeof pending.staffId !== 'string' || !(pending.until > Date.now())) {
        return reply.status(401).send({ message: TWO_FACTOR_EXPIRED });
      }
      const keys = twoFactorKeys(deps.sessionKey);
      const outcome = await attemptSignIn(
        deps.pool,
        TWO_FACTOR_CODE_LIMIT,
        { account: pending.staffId, ip: request.ip },
        async (tx): Promise<AttemptCheck<SignInFactor, string>> => {
          const staff = await signInFactor(tx, pending.staffId);
          if (!staff) return { failed: TWO_FACTOR_EXPIRED };
          return (await acceptCode(tx, keys, staff, request.body.code)) ? { passed: staff } : { failed: WRONG_CODE };
        },
      );
      if ('refused' in outcome) return reply.status(429).send({ message: outcome.refused });
      if ('failed' in outcome) return reply.status(401).send({ message: outcome.failed });
      await openStaffSession(deps.pool, request, outcome.passed.id);
      rememberDevice(request, reply, deviceProof(deps.sessionKey, outcome.passed.email));
      return toAuthUser(outcome.passed, { enabled: true, required: await twoFactorRequired(deps.pool) });
    },
  );

  app.get(
    '/api/auth/user',
    {
      config: { access: 'staff', ...TWO_FACTOR_SETUP },
      schema: { summary: 'The signed-in staff member', response: { 200: json('The staff member', AuthUser) } },
    },
    async (request) => toAuthUser(request.staff!, (await callerOf(request)).twoFactor ?? { enabled: false, required: false }),
  );

  app.get(
    '/api/login',
    {
      schema: {
        summary: 'Sign-in page',
        description: "The spec's sign-in link: redirects to the console's /login page.",
        response: { 302: empty('To /login') },
      },
    },
    async (_request, reply) => reply.redirect('/login'),
  );

  /** Sign-out: ends the sessions this cookie carries on the server (a copy of the cookie stops working too). */
  app.post(
    '/api/auth/logout',
    {
      config: OWN_ACCOUNT,
      schema: {
        summary: 'Sign out',
        description: 'Ends the sessions the cookie carries (staff and portal) and clears it.',
        response: { 204: empty('Signed out') },
      },
    },
    async (request, reply) => {
      await closeSessions(deps.pool, request);
      return reply.status(204).send();
    },
  );

  // The spec's Logout button navigates to /api/logout: it signs out when the navigation comes
  // from our own pages; from another site it only asks (a cross-site link must not sign anyone out).
  app.get(
    '/api/logout',
    {
      schema: {
        summary: 'Sign out (link)',
        description: "The spec's Logout link. From our own pages it signs out and redirects to `/`; from another site it only asks.",
        response: { 302: empty('Signed out: to /'), ...signOutAnswers },
      },
    },
    async (request, reply) => {
      if (!isSameOriginRequest(request, deps.publicUrl)) return confirmSignOut(reply);
      await closeSessions(deps.pool, request);
      return reply.redirect('/');
    },
  );

  await app.register(async (plugin) => {
    const form = plugin.withTypeProvider<ZodTypeProvider>();
    // The confirmation page's form posts an empty urlencoded body.
    form.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, {}));
    form.post(
      '/api/logout',
      {
        config: { ...OWN_ACCOUNT, answersCrossSite: true },
        schema: {
          summary: 'Sign out (form)',
          description:
            "The confirmation page's form (an empty form body). From our own pages it signs out and redirects to `/`; from another site it only asks.",
          response: { 303: empty('Signed out: to /'), ...signOutAnswers },
        },
      },
      async (request, reply) => {
        if (!isSameOriginRequest(request, deps.publicUrl)) return confirmSignOut(reply);
        await closeSessions(deps.pool, request);
        return reply.redirect('/', 303);
      },
    );
  });
}

function confirmSignOut(reply: FastifyReply) {
  return reply.status(200).type('text/html; charset=utf-8').send(CONFIRM_SIGN_OUT_PAGE);
}
