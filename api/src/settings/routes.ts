import { BillingSettingsAnswer, BillingSettingsQuery, UpdateBillingSettingsRequest } from '@storage/contracts/billing';
import { DelinquencySettingsAnswer, DelinquencySettingsQuery, UpdateDelinquencySettingsRequest } from '@storage/contracts/delinquency';
import { LeaseTermsAnswer, LeaseTermsQuery, UpdateLeaseTermsRequest } from '@storage/contracts/lease-terms';
import { UpdatePromotionsRequest } from '@storage/contracts/promotions';
import { ProtectionSettingsAnswer, UpdateProtectionSettingsRequest } from '@storage/contracts/protection';
import {
  BUSINESS_SETTINGS_SCOPE,
  BusinessProfile,
  NotificationPreferences,
  PaymentSettingsRequest,
  SecuritySettings,
  Settings,
} from '@storage/contracts/settings';
import { leaseTermsOf } from '@storage/domain/billing/settings';
import { ConflictError, DomainRuleError, NotFoundError } from '@storage/domain/commands/errors';
import type { CommandResult } from '@storage/domain/commands/handle';
import {
  updateBillingSettings,
  updateBusinessProfile,
  updateDelinquencySettings,
  updateLeaseTerms,
  updateNotificationPreferences,
  updatePaymentSettings,
  updatePromotions,
  updateProtectionSettings,
  updateSecuritySettings,
} from '@storage/domain/settings/commands';
import type { FastifyInstance } from 'fastify';
import { passwordRoutes } from '../auth/password-routes.ts';
import { twoFactorRequired } from '../auth/two-factor.ts';
import { twoFactorRoutes } from '../auth/two-factor-routes.ts';
import type { AppDeps } from '../deps.ts';
import { getFacility } from '../facilities/queries.ts';
import { callerOf } from '../http/caller.ts';
import { commandContext } from '../http/command-context.ts';
import { json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { getBillingSettings, getDelinquencySettings, getPromotions, getProtectionSettings, getSettings, unknownFacilities } from './queries.ts';

export async function settingsRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Settings', access: 'staff' });
  // Changing one's own password is every staff member's right; it lives beside the other settings.
  await app.register(passwordRoutes, deps);
  // So is setting up one's own two-factor sign-in.
  await app.register(twoFactorRoutes, deps);

  const changeSettings = { roles: ['owner', 'manager'] } as const;
  const answer = async (result: CommandResult<unknown>) => {
    if (result.position) await deps.afterAppend(result.position);
    return getSettings(deps.pool, BUSINESS_SETTINGS_SCOPE, deps.stripePublishableKey);
  };
  const saved = { 200: json('The settings as saved', Settings) };

  app.get('/api/settings', { schema: { summary: 'The business settings', response: { 200: json('The settings', Settings) } } }, async () =>
    getSettings(deps.pool, BUSINESS_SETTINGS_SCOPE, deps.stripePublishableKey),
  );

  app.put(
    '/api/settings/business-profile',
    { config: changeSettings, schema: { summary: 'Save the business profile', body: BusinessProfile, response: saved } },
    async (request) => answer(await updateBusinessProfile(commandContext(deps, request), request.body)),
  );

  app.put(
    '/api/settings/notifications',
    { config: changeSettings, schema: { summary: 'Save the notification preferences', body: NotificationPreferences, response: saved } },
    async (request) => answer(await updateNotificationPreferences(commandContext(deps, request), request.body)),
  );

  app.put(
    '/api/settings/payments',
    { config: changeSettings, schema: { summary: 'Save the payment settings', body: PaymentSettingsRequest, response: saved } },
    async (request) => answer(await updatePaymentSettings(commandContext(deps, request), request.body)),
  );

  app.get(
    '/api/settings/security',
    { schema: { summary: 'The security settings', response: { 200: json('Whether two-factor sign-in is required of every staff member', SecuritySettings) } } },
    async () => ({ twoFactorRequired: await twoFactorRequired(deps.pool) }),
  );

  app.put(
    '/api/settings/security',
    {
      config: { roles: ['owner'] },
      schema: {
        summary: 'Save the security settings',
        description:
          'Requires two-factor sign-in of every staff member, or no longer does. While it is required, a member without it who signs in may only set it up (every other staff route answers 403). The owner saving it must have it on first. Owners only.',
        body: SecuritySettings,
        response: { 200: json('The security settings as saved', SecuritySettings) },
      },
    },
    async (request) => {
      const { twoFactorRequired: required } = request.body;
      // Requiring it of everyone while not having it oneself would leave the owner able to do nothing but set it up.
      if (required && !(await callerOf(request)).twoFactor?.enabled) {
        throw new ConflictError('Turn on two-factor sign-in for your own account first, then require it of everyone', 'twoFactorRequired');
      }
      const result = await updateSecuritySettings(commandContext(deps, request), required);
      if (result.position) await deps.afterAppend(result.position);
      return { twoFactorRequired: await twoFactorRequired(deps.pool) };
    },
  );

  /** A facility's settings are kept on its own settings stream; the facility must exist. */
  const knownFacility = async (facilityId: string | null | undefined) => {
    if (facilityId && !(await getFacility(deps.pool, facilityId))) throw new NotFoundError('Facility not found');
    return facilityId ?? null;
  };

  app.get(
    '/api/settings/billing',
    {
      schema: {
        summary: 'The billing settings',
        description: "The business's own billing settings, the facility's own (with facilityId; null: it follows the business's), and those that apply to it.",
        querystring: BillingSettingsQuery,
        response: { 200: json('The billing settings', BillingSettingsAnswer) },
      },
    },
    async (request) => getBillingSettings(deps.pool, await knownFacility(request.query.facilityId)),
  );

  app.put(
    '/api/settings/billing',
    {
      config: changeSettings,
      schema: {
        summary: 'Save the billing settings',
        description:
          "Saves the business's billing settings (facilityId null) or a facility's own. Settings null: the facility follows the business's again (the business: the defaults). A fixed late fee of the business is also the Payments settings' late fee.",
        body: UpdateBillingSettingsRequest,
        response: { 200: json('The billing settings as saved', BillingSettingsAnswer) },
      },
    },
    async (request) => {
      const facilityId = await knownFacility(request.body.facilityId);
      const result = await updateBillingSettings(commandContext(deps, request), request.body.settings, facilityId ?? BUSINESS_SETTINGS_SCOPE);
      if (result.position) await deps.afterAppend(result.position);
      return getBillingSettings(deps.pool, facilityId);
    },
  );

  app.get(
    '/api/settings/delinquency',
    {
      schema: {
        summary: 'The delinquency schedule',
        description:
          "The business's own delinquency schedule, the facility's own (with facilityId; null: it follows the business's), and the one that applies to it (else the product's default).",
        querystring: DelinquencySettingsQuery,
        response: { 200: json('The delinquency schedule', DelinquencySettingsAnswer) },
      },
    },
    async (request) => getDelinquencySettings(deps.pool, await knownFacility(request.query.facilityId)),
  );

  app.put(
    '/api/settings/delinquency',
    {
      config: { roles: ['owner'] },
      schema: {
        summary: 'Save the delinquency schedule',
        description:
          "Saves the business's schedule (facilityId null) or a facility's own: steps in order, each kind at most once, the days (after an invoice's due date) strictly increasing, and a threshold: a step fires while the past-due balance is above it, and the lockout's threshold is what clears a renter. Steps null: the facility follows the business's again (the business: the default). Owners only.",
        body: UpdateDelinquencySettingsRequest,
        response: { 200: json('The delinquency schedule as saved', DelinquencySettingsAnswer) },
      },
    },
    async (request) => {
      const facilityId = await knownFacility(request.body.facilityId);
      const result = await updateDelinquencySettings(commandContext(deps, request), request.body.steps, facilityId ?? BUSINESS_SETTINGS_SCOPE);
      if (result.position) await deps.afterAppend(result.position);
      return getDelinquencySettings(deps.pool, facilityId);
    },
  );

  app.get(
    '/api/settings/protection',
    {
      schema: {
        summary: 'The protection plans',
        description: "The business's own protection plans, the facility's own (with facilityId; null: it follows the business's), and those that apply to it.",
        querystring: BillingSettingsQuery,
        response: { 200: json('The protection plans', ProtectionSettingsAnswer) },
      },
    },
    async (request) => getProtectionSettings(deps.pool, await knownFacility(request.query.facilityId)),
  );

  app.put(
    '/api/settings/protection',
    {
      config: changeSettings,
      schema: {
        summary: 'Save the protection plans',
        description:
          "Saves the business's protection plans (facilityId null) or a facility's own: at most 12 tiers, each with its coverage and monthly premium, the default plan and after how many days a renter with neither a plan nor proof of insurance is enrolled in it. Settings null: the facility follows the business's again (the business: no plans).",
        body: UpdateProtectionSettingsRequest,
        response: { 200: json('The protection plans as saved', ProtectionSettingsAnswer) },
      },
    },
    async (request) => {
      const facilityId = await knownFacility(request.body.facilityId);
      const result = await updateProtectionSettings(commandContext(deps, request), request.body.settings, facilityId ?? BUSINESS_SETTINGS_SCOPE);
      if (result.position) await deps.afterAppend(result.position);
      return getProtectionSettings(deps.pool, facilityId);
    },
  );

  app.get(
    '/api/settings/lease-terms',
    {
      schema: {
        summary: 'The lease agreement terms',
        description:
          "The business's own additional lease terms, the facility's own (with facilityId; null: it follows the business's), and those that apply to it: the agreement prints them after the terms generated from the billing settings.",
        querystring: LeaseTermsQuery,
        response: { 200: json('The lease agreement terms', LeaseTermsAnswer) },
      },
    },
    async (request) => leaseTermsOf(deps.store, await knownFacility(request.query.facilityId)),
  );

  app.put(
    '/api/settings/lease-terms',
    {
      config: changeSettings,
      schema: {
        summary: 'Save the lease agreement terms',
        description:
          "Saves the business's additional lease terms (facilityId null) or a facility's own: at most 20, each 1 to 1000 characters. Terms null: the facility follows the business's again (the business: none). The agreement renters sign from now on carries them; leases signed before keep the agreement they signed.",
        body: UpdateLeaseTermsRequest,
        response: { 200: json('The lease agreement terms as saved', LeaseTermsAnswer) },
      },
    },
    async (request) => {
      const facilityId = await knownFacility(request.body.facilityId);
      const result = await updateLeaseTerms(commandContext(deps, request), request.body.terms, facilityId);
      if (result.position) await deps.afterAppend(result.position);
      return leaseTermsOf(deps.store, facilityId);
    },
  );

  app.get(
    '/api/settings/promotions',
    {
      schema: {
        summary: 'The promotions',
        description: "The business's promotions, active or not.",
        response: { 200: json('The promotions', UpdatePromotionsRequest) },
      },
    },
    async () => getPromotions(deps.pool),
  );

  app.put(
    '/api/settings/promotions',
    {
      config: changeSettings,
      schema: {
        summary: 'Save the promotions',
        description:
          "Saves the business's promotions, all of them (the list replaces the one before; leases given a promotion keep its terms). Each names the facilities it applies at (none: all), which must exist.",
        body: UpdatePromotionsRequest,
        response: { 200: json('The promotions as saved', UpdatePromotionsRequest) },
      },
    },
    async (request) => {
      const { promotions } = request.body;
      const unknown = new Set(await unknownFacilities(deps.pool, [...new Set(promotions.flatMap((p) => p.facilityIds))]));
      const at = promotions.findIndex((p) => p.facilityIds.some((id) => unknown.has(id)));
      if (at >= 0) throw new DomainRuleError(`promotions.${at}.facilityIds: no such facility`, `promotions.${at}.facilityIds`);
      const result = await updatePromotions(commandContext(deps, request), promotions);
      if (result.position) await deps.afterAppend(result.position);
      return getPromotions(deps.pool);
    },
  );
}
