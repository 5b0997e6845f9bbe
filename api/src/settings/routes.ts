import { BUSINESS_SETTINGS_SCOPE, BusinessProfile, NotificationPreferences, PaymentSettingsRequest } from '@storage/contracts/settings';
import type { CommandResult } from '@storage/domain/commands/handle';
import { updateBusinessProfile, updateNotificationPreferences, updatePaymentSettings } from '@storage/domain/settings/commands';
import type { FastifyInstance } from 'fastify';
import { passwordRoutes } from '../auth/password-routes.ts';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { requireRole } from '../http/roles.ts';
import { parseInput } from '../http/validate.ts';
import { getSettings } from './queries.ts';

export async function settingsRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);
  // Changing one's own password is every staff member's right; it lives beside the other settings.
  await app.register(passwordRoutes, deps);

  const changeSettings = { preHandler: requireRole('owner', 'manager') };
  const answer = async (result: CommandResult<unknown>) => {
    if (result.position) await deps.afterAppend(result.position);
    return getSettings(deps.pool, BUSINESS_SETTINGS_SCOPE, deps.stripePublishableKey);
  };

  app.get('/api/settings', async () => getSettings(deps.pool, BUSINESS_SETTINGS_SCOPE, deps.stripePublishableKey));

  app.put('/api/settings/business-profile', changeSettings, async (request) => {
    const profile = parseInput(BusinessProfile, request.body);
    return answer(await updateBusinessProfile(commandContext(deps, request), profile));
  });

  app.put('/api/settings/notifications', changeSettings, async (request) => {
    const preferences = parseInput(NotificationPreferences, request.body);
    return answer(await updateNotificationPreferences(commandContext(deps, request), preferences));
  });

  app.put('/api/settings/payments', changeSettings, async (request) => {
    const payments = parseInput(PaymentSettingsRequest, request.body);
    return answer(await updatePaymentSettings(commandContext(deps, request), payments));
  });
}
