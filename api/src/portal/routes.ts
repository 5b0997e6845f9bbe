import {
  CustomerPortalQuery,
  PORTAL_CUSTOMER_NOT_FOUND,
  PORTAL_GATE_MISMATCH,
  type PortalContact,
  type PortalSession,
  phoneLast4,
  VerifyCustomerRequest,
} from '@storage/contracts/portal';
import { BUSINESS_SETTINGS_SCOPE } from '@storage/contracts/settings';
import { ForbiddenError } from '@storage/domain/commands/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AttemptCheck, attemptSignIn, type FailureLimit } from '../auth/failure-limit.ts';
import type { AppDeps } from '../deps.ts';
import { callerOf } from '../http/caller.ts';
import { parseInput } from '../http/validate.ts';
import { getSettings } from '../settings/queries.ts';
import {
  findCustomerByEmail,
  findCustomerById,
  getPortalAccount,
  listPortalAccessLogs,
  listPortalInvoices,
  listPortalUnits,
  type PortalCustomer,
  toPortalProfile,
} from './queries.ts';
import { closeCustomerSession, openCustomerSession, requireCustomerSession } from './session.ts';

type GateFailure = { status: 401 | 404; message: string };

/** The gate's secret is short (4 digits): an email is refused after 5 failures from anywhere, an address after 20. */
const GATE_LIMIT: FailureLimit = {
  kind: 'portal',
  windowMinutes: 15,
  perAccount: 5,
  perIp: 20,
  refusal: (minutes) => `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
};

export async function customerPortalRoutes(app: FastifyInstance, deps: AppDeps) {
  app.post('/api/customer/verify', async (request, reply) => {
    const { email, phoneLast4: entered } = parseInput(VerifyCustomerRequest, request.body);
    const outcome = await attemptSignIn(
      deps.pool,
      GATE_LIMIT,
      { account: email, ip: request.ip },
      async (tx): Promise<AttemptCheck<PortalCustomer, GateFailure>> => {
        const customer = await findCustomerByEmail(tx, email);
        if (!customer) return { failed: { status: 404, message: PORTAL_CUSTOMER_NOT_FOUND } };
        const onFile = customer.phone === null ? null : phoneLast4(customer.phone);
        if (onFile === null || onFile !== phoneLast4(entered)) return { failed: { status: 401, message: PORTAL_GATE_MISMATCH } };
        return { passed: customer };
      },
    );
    if ('refused' in outcome) return reply.status(429).send({ message: outcome.refused });
    if ('failed' in outcome) return reply.status(outcome.failed.status).send({ message: outcome.failed.message });
    await openCustomerSession(deps.pool, request, outcome.passed.id);
    return toPortalProfile(outcome.passed);
  });

  /** Whether a portal session is open (and whose): the portal asks this once instead of reading five answers that would be 401. */
  app.get('/api/customer/session', async (request): Promise<PortalSession> => {
    const { customerId } = await callerOf(request);
    const customer = customerId ? await findCustomerById(deps.pool, customerId) : null;
    return customer ? { signedIn: true, profile: toPortalProfile(customer) } : { signedIn: false };
  });

  app.post('/api/customer/sign-out', async (request, reply) => {
    await closeCustomerSession(deps.pool, request);
    return reply.status(204).send();
  });

  await app.register(async (scoped) => {
    scoped.addHook('preHandler', requireCustomerSession);

    /** The session's customer; `email`, when given, must name that same customer. */
    async function sessionCustomer(request: FastifyRequest) {
      const { email } = parseInput(CustomerPortalQuery, request.query, 'query');
      const customer = await findCustomerById(deps.pool, request.customerId!);
      if (!customer) {
        await closeCustomerSession(deps.pool, request);
        throw Object.assign(new Error('Please verify your account to continue'), { statusCode: 401 });
      }
      if (email !== undefined && email !== customer.email.toLowerCase()) throw new ForbiddenError('This portal session belongs to another customer');
      return customer;
    }

    scoped.get('/api/customer/profile', async (request) => toPortalProfile(await sessionCustomer(request)));
    scoped.get('/api/customer/account', async (request) => getPortalAccount(deps.pool, (await sessionCustomer(request)).id));
    scoped.get('/api/customer/invoices', async (request) => listPortalInvoices(deps.pool, (await sessionCustomer(request)).id));
    scoped.get('/api/customer/units', async (request) => listPortalUnits(deps.pool, (await sessionCustomer(request)).id));
    scoped.get('/api/customer/access-logs', async (request) => listPortalAccessLogs(deps.pool, (await sessionCustomer(request)).id));
    scoped.get('/api/customer/contact', async (request): Promise<PortalContact> => {
      await sessionCustomer(request);
      return (await getSettings(deps.pool, BUSINESS_SETTINGS_SCOPE, undefined)).businessProfile;
    });
  });
}
