import { Ledger } from '@storage/contracts/ledger';
import { PORTAL_PAYMENTS_SHOWN, PortalPayment } from '@storage/contracts/payments';
import {
  CustomerPortalQuery,
  PORTAL_CODE_REFUSED,
  PORTAL_CODE_SENT,
  PORTAL_GATE_MISMATCH,
  PortalAccessLog,
  PortalAccount,
  PortalCodeSent,
  PortalContact,
  PortalInvoice,
  PortalProfile,
  PortalSession,
  PortalUnit,
  phoneLast4,
  VerifyCodeRequest,
  VerifyCustomerRequest,
} from '@storage/contracts/portal';
import { BUSINESS_SETTINGS_SCOPE } from '@storage/contracts/settings';
import { ForbiddenError } from '@storage/domain/commands/errors';
import { developmentMailer } from '@storage/platform/mail/port';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type AttemptCheck, attemptSignIn, type FailureLimit } from '../auth/failure-limit.ts';
import type { AppDeps } from '../deps.ts';
import { callerOf } from '../http/caller.ts';
import { attachment } from '../http/csv.ts';
import { empty, errorAnswer, file, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { customerLedger } from '../ledger/queries.ts';
import { statementFileName, statementPdf } from '../ledger/statement.ts';
import { getSettings } from '../settings/queries.ts';
import { listPortalPayments } from './payments.ts';
import {
  findCustomerByEmail,
  findCustomerById,
  getPortalAccount,
  getPortalContact,
  listPortalAccessLogs,
  listPortalInvoices,
  listPortalUnits,
  type PortalCustomer,
  statementSender,
  toPortalProfile,
} from './queries.ts';
import { closeCustomerSession, openCustomerSession } from './session.ts';
import { CODE_MINUTES, CODE_TRIES, codeRequired, type IssuedCode, issueCode, mailCode, redeemCode, WATCH_HOURS } from './sign-in-codes.ts';

/**
 * Failures count per email from one address (a renter's typos never lock them out elsewhere) and
 * per address across emails; once an email's gate has seen failures, a right pair needs the
 * mailed code (sign-in-codes.ts), so the failures are kept for that watch.
 */
const GATE_LIMIT: FailureLimit = {
  kind: 'portal',
  windowMinutes: 15,
  keepMinutes: WATCH_HOURS * 60,
  perAccountFromIp: 5,
  perIp: 20,
  refusal: (minutes) => `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
};

/** Wrong codes, per email from one address and per address (each code also wears out after CODE_TRIES). */
const CODE_LIMIT: FailureLimit = { ...GATE_LIMIT, kind: 'portal-code', perAccountFromIp: 10 };

type GatePass = { customer: PortalCustomer; code: IssuedCode | null };

export async function customerPortalRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Customer portal', access: 'portal' });

  app.post(
    '/api/customer/verify',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Open a portal session',
        description:
          "A renter's way in: their email and the last 4 digits of the phone on file. The answer sets the session cookie, or, once the email's gate has seen failures, mails a one-time code to the email on file (202). An unknown email fails as wrong digits do. Failed attempts are limited per email and address.",
        body: VerifyCustomerRequest,
        response: {
          200: json('Verified: the renter (the session cookie is set)', PortalProfile),
          202: json('The digits were right, but this email needs the code just mailed to it (POST /api/customer/verify-code)', PortalCodeSent),
          401: errorAnswer(PORTAL_GATE_MISMATCH),
          429: errorAnswer('Too many attempts, or too many codes mailed: the message says when to try again'),
          503: errorAnswer('The code could not be mailed'),
        },
      },
    },
    async (request, reply) => {
      const { email, phoneLast4: entered } = request.body;
      // An unknown email and wrong digits fail alike (the same answer, the same work), so the gate
      // tells no one who rents here.
      const outcome = await attemptSignIn(deps.pool, GATE_LIMIT, { account: email, ip: request.ip }, async (tx): Promise<AttemptCheck<GatePass, true>> => {
        const customer = await findCustomerByEmail(tx, email);
        const onFile = customer?.phone ? phoneLast4(customer.phone) : null;
        if (!customer || onFile === null || onFile !== phoneLast4(entered)) return { failed: true };
        const code = (await codeRequired(tx, email, request.ip)) ? await issueCode(tx, customer.id, email) : null;
        return { passed: { customer, code } };
      });
      if ('refused' in outcome) return reply.status(429).send({ message: outcome.refused });
      if ('failed' in outcome) return reply.status(401).send({ message: PORTAL_GATE_MISMATCH });
      const { customer, code } = outcome.passed;
      if (code === null) {
        await openCustomerSession(deps.pool, request, customer.id);
        return toPortalProfile(customer);
      }
      if ('retryInMinutes' in code) {
        const minutes = code.retryInMinutes;
        return reply.status(429).send({ message: `Too many codes were sent. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` });
      }
      try {
        await mailCode(deps.mailer ?? developmentMailer, customer.email, code.code);
      } catch (error) {
        request.log.error({ err: error }, 'the portal sign-in code could not be mailed');
        return reply.status(503).send({ message: 'We could not email your sign-in code. Please try again in a few minutes.' });
      }
      return reply.status(202).send({ codeSent: true, message: PORTAL_CODE_SENT });
    },
  );

  app.post(
    '/api/customer/verify-code',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Open a portal session with a mailed code',
        description: `The code the gate mailed when the phone digits alone were not enough. It works once, for ${CODE_MINUTES} minutes and ${CODE_TRIES} tries; a new gate attempt replaces it.`,
        body: VerifyCodeRequest,
        response: {
          200: json('Verified: the renter', PortalProfile),
          401: errorAnswer(PORTAL_CODE_REFUSED),
          429: errorAnswer('Too many attempts: the message says when to try again'),
        },
      },
    },
    async (request, reply) => {
      const { email, code } = request.body;
      const outcome = await attemptSignIn(deps.pool, CODE_LIMIT, { account: email, ip: request.ip }, async (tx): Promise<AttemptCheck<string, true>> => {
        const customerId = await redeemCode(tx, email, code);
        return customerId ? { passed: customerId } : { failed: true };
      });
      if ('refused' in outcome) return reply.status(429).send({ message: outcome.refused });
      const customer = 'passed' in outcome ? await findCustomerById(deps.pool, outcome.passed) : null;
      if (!customer) return reply.status(401).send({ message: PORTAL_CODE_REFUSED });
      await openCustomerSession(deps.pool, request, customer.id);
      return toPortalProfile(customer);
    },
  );

  /** Whether a portal session is open (and whose): the portal asks this once instead of reading five answers that would be 401. */
  app.get(
    '/api/customer/session',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Whether a portal session is open',
        description: 'Answers 200 either way: signed in with the renter, or not.',
        response: { 200: json('The session', PortalSession) },
      },
    },
    async (request): Promise<PortalSession> => {
      const { customerId } = await callerOf(request);
      const customer = customerId ? await findCustomerById(deps.pool, customerId) : null;
      return customer ? { signedIn: true, profile: toPortalProfile(customer) } : { signedIn: false };
    },
  );

  app.post(
    '/api/customer/sign-out',
    { config: { access: 'public' }, schema: { summary: 'Close the portal session', response: { 204: empty('Signed out of the portal') } } },
    async (request, reply) => {
      await closeCustomerSession(deps.pool, request);
      return reply.status(204).send();
    },
  );

  /** The session's customer; `email`, when given, must name that same customer. */
  async function sessionCustomer(request: FastifyRequest, email: string | undefined) {
    const customer = await findCustomerById(deps.pool, request.customerId!);
    if (!customer) {
      await closeCustomerSession(deps.pool, request);
      throw Object.assign(new Error('Please verify your account to continue'), { statusCode: 401 });
    }
    if (email !== undefined && email !== customer.email.toLowerCase()) throw new ForbiddenError('This portal session belongs to another customer');
    return customer;
  }

  /** A read of the session's own account; `email`, when sent, must be the session's. */
  const ownAccount = <S extends z.ZodType>(summary: string, answer: ReturnType<typeof json<S>>) => ({
    schema: {
      summary,
      querystring: CustomerPortalQuery,
      response: { 200: answer, 403: errorAnswer('This portal session belongs to another customer') },
    },
  });

  app.get('/api/customer/profile', ownAccount('My profile', json('The renter', PortalProfile)), async (request) =>
    toPortalProfile(await sessionCustomer(request, request.query.email)),
  );
  app.get('/api/customer/account', ownAccount('My balance', json('The open balance, standing, minimum due and credit', PortalAccount)), async (request) =>
    getPortalAccount(deps.pool, deps.store, (await sessionCustomer(request, request.query.email)).id, deps.clock.now()),
  );
  app.get('/api/customer/invoices', ownAccount('My invoices', json('The invoices', z.array(PortalInvoice))), async (request) =>
    listPortalInvoices(deps.pool, (await sessionCustomer(request, request.query.email)).id),
  );
  app.get('/api/customer/units', ownAccount('My units', json('The units rented', z.array(PortalUnit))), async (request) =>
    listPortalUnits(deps.pool, deps.store, (await sessionCustomer(request, request.query.email)).id),
  );
  app.get(
    '/api/customer/payments',
    ownAccount(
      `My payments (the ${PORTAL_PAYMENTS_SHOWN} newest)`,
      json('Each payment, newest first, with what it paid and its receipt', z.array(PortalPayment)),
    ),
    async (request) => listPortalPayments(deps.pool, (await sessionCustomer(request, request.query.email)).id),
  );
  app.get('/api/customer/access-logs', ownAccount('My access log', json('Entries through the locks of my units', z.array(PortalAccessLog))), async (request) =>
    listPortalAccessLogs(deps.pool, (await sessionCustomer(request, request.query.email)).id),
  );
  app.get(
    '/api/customer/contact',
    ownAccount('My facilities’ contacts', json('How to reach each facility I rent at (the business for a renter of none)', PortalContact)),
    async (request): Promise<PortalContact> => {
      const customer = await sessionCustomer(request, request.query.email);
      const business = (await getSettings(deps.pool, BUSINESS_SETTINGS_SCOPE, undefined)).businessProfile;
      return getPortalContact(deps.pool, customer.id, business);
    },
  );

  /** Who the renter's statement is from (statementSender): their facility, or the business for a renter of several or none. */
  async function statementFrom(customerId: string) {
    const business = (await getSettings(deps.pool, BUSINESS_SETTINGS_SCOPE, undefined)).businessProfile;
    return statementSender(await getPortalContact(deps.pool, customerId, business), business);
  }

  /** The session's own ledger, as of today in their facility. */
  async function ownLedger(request: FastifyRequest, email: string | undefined) {
    const ledger = await customerLedger(deps.pool, (await sessionCustomer(request, email)).id, {}, deps.clock.now());
    if (!ledger) throw new Error('The session customer has no ledger');
    return ledger;
  }
  app.get('/api/customer/ledger', ownAccount('My statement', json('My charges, payments and credits with the running balance', Ledger)), async (request) =>
    ownLedger(request, request.query.email),
  );
  app.get(
    '/api/customer/statement.pdf',
    {
      schema: {
        summary: 'My statement as PDF',
        querystring: CustomerPortalQuery,
        response: { 200: file('The statement, as a PDF to download', 'application/pdf'), 403: errorAnswer('This portal session belongs to another customer') },
      },
    },
    async (request, reply) => {
      const ledger = await ownLedger(request, request.query.email);
      return reply
        .type('application/pdf')
        .header('content-disposition', attachment(statementFileName(ledger)))
        .send(await statementPdf(ledger, await statementFrom(ledger.customer.id)));
    },
  );
}
