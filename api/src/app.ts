import Fastify, { type FastifyInstance } from 'fastify';
import { accessRoutes } from './access/routes.ts';
import { activityRoutes } from './activities/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { autopayRoutes } from './autopay/routes.ts';
import { billingRoutes } from './billing/routes.ts';
import { billingRunRoutes } from './billing-runs/routes.ts';
import { customerRoutes } from './customers/routes.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { delinquencyRoutes } from './delinquency/routes.ts';
import type { AppDeps } from './deps.ts';
import { facilityRoutes } from './facilities/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { historyRoutes } from './history/routes.ts';
import { registerAccess } from './http/access.ts';
import { registerCompression } from './http/compression.ts';
import { answerFrameworkError, registerErrorHandling } from './http/errors.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerApiReference } from './http/openapi.ts';
import { registerRequestIdHeader, requestIdGenerator } from './http/request-id.ts';
import { registerRouteList } from './http/route-list.ts';
import { registerSameOriginChanges } from './http/same-origin.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerFrontEnds } from './http/static.ts';
import { registerStorableInput } from './http/storable-input.ts';
import { invoiceRoutes } from './invoices/routes.ts';
import { leaseProtectionRoutes } from './leases/protection-routes.ts';
import { leaseRoutes } from './leases/routes.ts';
import { ledgerRoutes } from './ledger/routes.ts';
import { lockRoutes } from './locks/routes.ts';
import { merchandiseRoutes } from './merchandise/routes.ts';
import { messagePortalRoutes, messageRoutes } from './messages/routes.ts';
import { notificationRoutes } from './notifications/routes.ts';
import { paymentRoutes } from './payments/routes.ts';
import { sessionPlugin } from './plugins/session.ts';
import { customerPortalRoutes } from './portal/routes.ts';
import { onlineRentalRoutes } from './public/rentals.ts';
import { publicRoutes } from './public/routes.ts';
import { readModelRoutes } from './read-model/routes.ts';
import { rentChangeRoutes } from './rent-changes/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { reservationRoutes } from './reservations/routes.ts';
import { searchRoutes } from './search/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { staffRoutes } from './staff/routes.ts';
import { unitRoutes } from './units/routes.ts';

const BODY_LIMIT_BYTES = 64 * 1024;

/** TRUST_PROXY as Fastify takes it (a hop count as the function Fastify would make of it: its types omit numbers). */
function fastifyTrustProxy(trustProxy: AppDeps['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return trustProxy ?? false;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    // The address every per-address limit sees: a forwarded header only from a configured proxy.
    trustProxy: fastifyTrustProxy(deps.trustProxy),
    routerOptions: { ignoreTrailingSlash: true },
    // A UUID per request (or a trusted proxy's X-Request-Id): the events it appends carry it as their correlation id.
    genReqId: requestIdGenerator(deps.trustProxy),
    requestIdHeader: false,
    frameworkErrors: answerFrameworkError,
  });
  registerRouteList(app);
  registerRequestIdHeader(app);
  registerErrorHandling(app);
  registerSameOriginChanges(app, deps.publicUrl);
  await registerSecurityHeaders(app, deps);
  await registerCompression(app);
  await app.register(sessionPlugin, deps);
  registerStorableInput(app);
  registerAccess(app, deps);
  registerIdempotency(app, deps.pool);
  await registerApiReference(app);

  await app.register(healthRoutes, deps);
  await app.register(authRoutes, deps);
  await app.register(facilityRoutes, deps);
  await app.register(customerRoutes, deps);
  await app.register(delinquencyRoutes, deps);
  await app.register(ledgerRoutes, deps);
  await app.register(notificationRoutes, deps);
  await app.register(unitRoutes, deps);
  await app.register(merchandiseRoutes, deps);
  await app.register(lockRoutes, deps);
  await app.register(accessRoutes, deps);
  await app.register(invoiceRoutes, deps);
  await app.register(billingRoutes, deps);
  await app.register(billingRunRoutes, deps);
  await app.register(leaseRoutes, deps);
  await app.register(leaseProtectionRoutes, deps);
  await app.register(rentChangeRoutes, deps);
  await app.register(reservationRoutes, deps);
  await app.register(activityRoutes, deps);
  await app.register(dashboardRoutes, deps);
  await app.register(reportRoutes, deps);
  await app.register(searchRoutes, deps);
  await app.register(settingsRoutes, deps);
  await app.register(staffRoutes, deps);
  await app.register(publicRoutes, deps);
  await app.register(onlineRentalRoutes, deps);
  await app.register(customerPortalRoutes, deps);
  await app.register(paymentRoutes, deps);
  await app.register(autopayRoutes, deps);
  await app.register(historyRoutes, deps);
  await app.register(readModelRoutes, deps);
  await app.register(messageRoutes, deps);
  await app.register(messagePortalRoutes, deps);

  if (deps.staticRoots) await registerFrontEnds(app, deps.staticRoots);
  else app.setNotFoundHandler(async (_request, reply) => reply.status(404).send({ message: 'Not Found' }));
  return app;
}
