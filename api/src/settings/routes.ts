import { BUSINESS_SETTINGS_SCOPE, BusinessProfile, NotificationPreferences, PaymentSettingsRequest, Settings } from '@storage/contracts/settings';
import type { CommandResult } from '@storage/domain/commands/handle';
import { updateBusinessProfile, updateNotificationPreferences, updatePaymentSettings } from '@storage/domain/settings/commands';
import type { FastifyInstance } from 'fastify';
import { passwordRoutes } from '../auth/password-routes.ts';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { getSettings } from './queries.ts';

export async function settingsRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Settings', access: 'staff' });
  // Changing one's own password is every staff member's right; it lives beside the other settings.
  await app.register(passwordRoutes, deps);

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
}
