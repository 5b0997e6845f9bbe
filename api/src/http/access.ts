import type { StaffRole } from '@storage/contracts/enums';
import { ForbiddenError } from '@storage/domain/commands/errors';
import { facilityOfGatewayKey } from '@storage/domain/locks/gateway-keys';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { requireCustomerSession } from '../portal/session.ts';
import { callerOf, signedInStaff } from './caller.ts';

/**
 * Who may call a route: anyone; a signed-in staff member (the session cookie from
 * POST /api/auth/login); a renter's portal session (the cookie from POST /api/customer/verify);
 * a lock gateway with its facility's key (Authorization: Bearer); Stripe, whose webhook the
 * route verifies by its signature over the raw body.
 */
export type Access = 'public' | 'staff' | 'portal' | 'gateway' | 'webhook';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; a route that does not say is for signed-in staff only. */
    access?: Access;
    /** The staff roles the route is for (the others get 403); every role when absent. */
    roles?: readonly StaffRole[];
    /** A change a read-only role may still make to its own account: sign in and out, its own password. */
    ownAccount?: boolean;
    /**
     * A staff route a member may call while the business requires two-factor sign-in and they have
     * not set it up (who they are, setting it up): every other staff route refuses them.
     */
    twoFactorSetup?: boolean;
  }
  interface FastifyRequest {
    /** The facility whose gateway key a gateway route was called with. */
    gatewayFacilityId: string | null;
  }
}

/** Route config of a change to the caller's own account, which read-only roles may make. */
export const OWN_ACCOUNT = { ownAccount: true } as const;

/** Route config of what a member who must set up two-factor sign-in may still call. */
export const TWO_FACTOR_SETUP = { twoFactorSetup: true } as const;

export const TWO_FACTOR_SETUP_REFUSAL = 'Two-factor sign-in is required: set it up in Settings → Security';

const READ_ONLY_ROLES: readonly StaffRole[] = ['auditor'];
export const CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const accessOf = (config: FastifyContextConfig | undefined): Access => config?.access ?? 'staff';

/** Whether a read-only role is refused on the route (any change but one to the caller's own account). */
export const refusesReadOnlyRoles = (method: string, config: FastifyContextConfig | undefined): boolean =>
  CHANGING_METHODS.has(method) && config?.ownAccount !== true;

export const rolesRefusal = (roles: readonly StaffRole[]) => `Only ${roles.join(' or ')} accounts may do this`;

/**
 * The one place that decides who may call a route, from what the route declares (its config's
 * `access` and `roles`, which the OpenAPI document shows too): it runs on the route the router
 * matched (whatever the spelling of the URL) before validation, idempotency and the handler, so
 * a caller who may not call a route learns nothing from it, not even what input it takes.
 * In order: a read-only role's change (403, whatever the route), who the caller is (401), a
 * member who must set up two-factor sign-in first (403), the route's roles (403).
 */
export function registerAccess(app: FastifyInstance, deps: Pick<AppDeps, 'pool' | 'store'>): void {
  app.decorateRequest('gatewayFacilityId', null);

  async function identify(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    switch (accessOf(request.routeOptions.config)) {
      case 'staff':
        return app.requireStaff(request, reply);
      case 'portal':
        return requireCustomerSession(request, reply);
      case 'gateway': {
        const facilityId = await facilityOfGatewayKey(deps.pool, deps.store, request.headers.authorization);
        if (!facilityId) {
          reply.status(401).header('www-authenticate', 'Bearer').send({ message: 'Unauthorized' });
          return;
        }
        request.gatewayFacilityId = facilityId;
        return;
      }
      case 'public':
      case 'webhook':
        return;
    }
  }

  async function refuseReadOnly(request: FastifyRequest): Promise<void> {
    if (!refusesReadOnlyRoles(request.method, request.routeOptions.config)) return;
    const staff = await signedInStaff(request);
    if (staff && READ_ONLY_ROLES.includes(staff.role)) throw new ForbiddenError('Auditors have read-only access');
  }

  /** A member the business requires to sign in with two factors, who has not set it up, may only set it up. */
  async function refuseUntilTwoFactor(request: FastifyRequest): Promise<void> {
    const config = request.routeOptions.config;
    if (accessOf(config) !== 'staff' || config.twoFactorSetup === true) return;
    const { twoFactor } = await callerOf(request);
    if (twoFactor?.required && !twoFactor.enabled) throw new ForbiddenError(TWO_FACTOR_SETUP_REFUSAL);
  }

  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    // The not-found handler (the apps' pages, the API's JSON 404) is nobody's route.
    if (request.is404) return;
    await refuseReadOnly(request);
    await identify(request, reply);
    if (reply.sent) return reply;
    await refuseUntilTwoFactor(request);
    const { roles } = request.routeOptions.config;
    if (roles && !(request.staff && roles.includes(request.staff.role))) throw new ForbiddenError(rolesRefusal(roles));
  });
}
