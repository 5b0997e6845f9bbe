import {
  ConfirmTwoFactorRequest,
  RecoveryCodes,
  RegenerateRecoveryCodesRequest,
  TurnOffTwoFactorRequest,
  TwoFactorEnrolment,
  TwoFactorStatus,
} from '@storage/contracts/auth';
import { streams } from '@storage/contracts/events';
import { credentialHash } from '@storage/domain/auth/credentials';
import { verifyPassword } from '@storage/domain/auth/passwords';
import { ConflictError, DomainRuleError, NotFoundError } from '@storage/domain/commands/errors';
import { loadAggregate } from '@storage/domain/commands/handle';
import { type StaffState, staffAggregate } from '@storage/domain/staff/staff';
import { disableTwoFactor, enableTwoFactor } from '@storage/domain/staff/two-factor-commands';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DatabaseTransactionConnection } from 'slonik';
import type { AppDeps } from '../deps.ts';
import { OWN_ACCOUNT, TWO_FACTOR_SETUP } from '../http/access.ts';
import { callerOf } from '../http/caller.ts';
import { commandContext } from '../http/command-context.ts';
import { empty, errorAnswer, json } from '../http/responses.ts';
import { type AttemptCheck, attemptSignIn } from './failure-limit.ts';
import {
  acceptCode,
  acceptTotp,
  confirmEnrolment,
  confirmedFactor,
  forgetFactors,
  pendingEnrolment,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  startEnrolment,
  TWO_FACTOR_CODE_LIMIT,
  twoFactorKeys,
} from './two-factor.ts';

/** A check's refusal: the field at fault and why. */
type Wrong = { field: 'code' | 'password'; why: string };
const WRONG_CODE: Wrong = { field: 'code', why: 'is not the current code from your authenticator app' };
const WRONG_CODE_OR_RECOVERY: Wrong = { field: 'code', why: 'is neither the current code from your authenticator app nor an unused recovery code' };

/** Too many wrong codes (429). */
class TooManyCodesError extends Error {
  readonly statusCode = 429;
}

// Oneself's two-factor sign-in, in Settings → Security: every role (auditors too: their own
// account), and a member the business requires it of before they have it. Answers that carry the
// secret or recovery codes are never kept for an Idempotency-Key replay.

/** Registered inside a plugin that already requires a signed-in staff member. */
export async function twoFactorRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const keys = twoFactorKeys(deps.sessionKey);
  const tags = ['Staff sign-in'];
  const changes = { ...OWN_ACCOUNT, idempotent: false } as const;

  /** The member's stream: which factor is current (the read model may lag a moment behind it). */
  const member = async (request: FastifyRequest): Promise<Exclude<StaffState, { status: 'none' }>> => {
    const { state } = await loadAggregate(deps.store, streams.staff(request.staff!.id), staffAggregate);
    if (state.status === 'none') throw new NotFoundError('Staff account not found');
    return state;
  };

  /**
   * Checks a code (or the password and a code) under the sign-in limiter: wrong ones count, per
   * member, apart from the sign-in's own count (a stolen session cannot lock its owner out of
   * signing in), so the codes cannot be guessed here either.
   */
  const checked = async <T>(request: FastifyRequest, check: (tx: DatabaseTransactionConnection) => Promise<AttemptCheck<T, Wrong>>): Promise<T> => {
    const outcome = await attemptSignIn(deps.pool, TWO_FACTOR_CODE_LIMIT, { account: `${request.staff!.id}|settings`, ip: request.ip }, check);
    if ('refused' in outcome) throw new TooManyCodesError(outcome.refused);
    if ('failed' in outcome) throw new DomainRuleError(`${outcome.failed.field}: ${outcome.failed.why}`, outcome.failed.field);
    return outcome.passed;
  };

  app.get(
    '/api/auth/two-factor/status',
    {
      config: TWO_FACTOR_SETUP,
      schema: {
        tags,
        summary: 'My two-factor sign-in',
        response: { 200: json('Whether it is on, required, and how many recovery codes are left', TwoFactorStatus) },
      },
    },
    async (request) => {
      const state = await member(request);
      const required = (await callerOf(request)).twoFactor?.required ?? false;
      const left = state.twoFactorId ? await recoveryCodesLeft(deps.pool, state.twoFactorId) : null;
      return { enabled: state.twoFactorId !== null, required, recoveryCodesLeft: left };
    },
  );

  app.post(
    '/api/auth/two-factor/enrolment',
    {
      config: { ...changes, ...TWO_FACTOR_SETUP },
      schema: {
        tags,
        summary: 'Start setting up two-factor sign-in',
        description:
          'Makes a new secret for an authenticator app (TOTP: 30 seconds, 6 digits, SHA-1), kept unconfirmed for 10 minutes: its otpauth:// URI, its QR code and the secret to type. Two-factor sign-in is on once a current code confirms it.',
        response: { 200: json('The secret to add to an authenticator app', TwoFactorEnrolment), 409: errorAnswer('Two-factor sign-in is already on') },
      },
    },
    async (request) => {
      const state = await member(request);
      if (state.twoFactorId) throw new ConflictError('Two-factor sign-in is already on: turn it off first to set it up again');
      const { otpauthUri, secret, qrSvg, expiresAt } = await startEnrolment(deps.pool, keys, { id: state.staffId, email: state.email });
      return { otpauthUri, secret, qrSvg, expiresAt: new Date(expiresAt).toISOString() };
    },
  );

  app.post(
    '/api/auth/two-factor/enrolment/confirm',
    {
      config: { ...changes, ...TWO_FACTOR_SETUP },
      schema: {
        tags,
        summary: 'Turn on two-factor sign-in',
        description:
          'A current code from the app, for the enrolment just started, turns two-factor sign-in on. The answer holds 10 one-time recovery codes, shown this once (only their hashes are kept).',
        body: ConfirmTwoFactorRequest,
        response: {
          200: json('On: the recovery codes', RecoveryCodes),
          400: errorAnswer('A wrong code, or no enrolment started in the last 10 minutes'),
          409: errorAnswer('Two-factor sign-in is already on'),
          429: errorAnswer('Too many wrong codes'),
        },
      },
    },
    async (request) => {
      const state = await member(request);
      if (state.twoFactorId) throw new ConflictError('Two-factor sign-in is already on: turn it off first to set it up again');
      const factorId = await checked(request, async (tx): Promise<AttemptCheck<string, Wrong>> => {
        const pending = await pendingEnrolment(tx, state.staffId);
        if (!pending) return { failed: { field: 'code', why: 'belongs to no setup under way (it takes at most 10 minutes): start again' } };
        return (await acceptTotp(tx, keys, pending, request.body.code)) ? { passed: pending.factor_id } : { failed: WRONG_CODE };
      });
      const recoveryCodes = await confirmEnrolment(deps.pool, keys, factorId);
      const result = await enableTwoFactor(commandContext(deps, request), state.staffId, factorId);
      if (result.position) await deps.afterAppend(result.position);
      return { recoveryCodes };
    },
  );

  app.post(
    '/api/auth/two-factor/turn-off',
    {
      config: changes,
      schema: {
        tags,
        summary: 'Turn off two-factor sign-in',
        description: 'Needs the password and a current code from the app (or a recovery code). The secret and the recovery codes are deleted.',
        body: TurnOffTwoFactorRequest,
        response: {
          204: empty('Off'),
          400: errorAnswer('A wrong password or code (the field says which)'),
          409: errorAnswer('Two-factor sign-in is off'),
          429: errorAnswer('Too many wrong codes'),
        },
      },
    },
    async (request, reply) => {
      const state = await member(request);
      const factorId = state.twoFactorId;
      if (!factorId) throw new ConflictError('Two-factor sign-in is already off');
      const { password, code } = request.body;
      const hash = await credentialHash(deps.pool, state.staffId, state.credentialId);
      await checked(request, async (tx): Promise<AttemptCheck<true, Wrong>> => {
        if (!hash || !(await verifyPassword(password, hash))) return { failed: { field: 'password', why: 'is not your current password' } };
        const factor = await confirmedFactor(tx, state.staffId, factorId);
        return factor && (await acceptCode(tx, keys, factor, code)) ? { passed: true } : { failed: WRONG_CODE_OR_RECOVERY };
      });
      const result = await disableTwoFactor(commandContext(deps, request), state.staffId, factorId);
      if (result.position) await deps.afterAppend(result.position);
      await forgetFactors(deps.pool, state.staffId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/auth/two-factor/recovery-codes',
    {
      config: changes,
      schema: {
        tags,
        summary: 'New recovery codes',
        description: 'Needs a current code from the app. The answer holds 10 new one-time recovery codes, shown this once; the old ones stop working.',
        body: RegenerateRecoveryCodesRequest,
        response: {
          200: json('The new recovery codes', RecoveryCodes),
          400: errorAnswer('A wrong code'),
          409: errorAnswer('Two-factor sign-in is off'),
          429: errorAnswer('Too many wrong codes'),
        },
      },
    },
    async (request) => {
      const state = await member(request);
      const factorId = state.twoFactorId;
      if (!factorId) throw new ConflictError('Two-factor sign-in is off: turn it on first');
      await checked(request, async (tx): Promise<AttemptCheck<true, Wrong>> => {
        const factor = await confirmedFactor(tx, state.staffId, factorId);
        return factor && (await acceptTotp(tx, keys, factor, request.body.code)) ? { passed: true } : { failed: WRONG_CODE };
      });
      return { recoveryCodes: await replaceRecoveryCodes(deps.pool, keys, factorId) };
    },
  );
}
