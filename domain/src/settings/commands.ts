import type { BillingSettings } from '@storage/contracts/billing';
import type { DelinquencyStep } from '@storage/contracts/delinquency';
import { streams } from '@storage/contracts/events';
import type { LeaseTerms } from '@storage/contracts/lease-terms';
import type { Promotion } from '@storage/contracts/promotions';
import type { ProtectionSettings } from '@storage/contracts/protection';
import { BUSINESS_SETTINGS_SCOPE, type BusinessProfile, type NotificationPreferences, type PaymentPreferences } from '@storage/contracts/settings';
import { type CommandContext, handleCommand } from '../commands/handle.ts';
import { decideSettings } from './businessLogic.ts';
import { settingsAggregate } from './settings.ts';

export function updateBusinessProfile(ctx: CommandContext, profile: BusinessProfile, scope = BUSINESS_SETTINGS_SCOPE) {
  return handleCommand(ctx, streams.settings(scope), settingsAggregate, (state) => decideSettings({ type: 'UpdateBusinessProfile', scope, profile }, state));
}

export function updateNotificationPreferences(ctx: CommandContext, preferences: NotificationPreferences, scope = BUSINESS_SETTINGS_SCOPE) {
  return handleCommand(ctx, streams.settings(scope), settingsAggregate, (state) =>
    decideSettings({ type: 'UpdateNotificationPreferences', scope, preferences }, state),
  );
}

export function updatePaymentSettings(ctx: CommandContext, payments: PaymentPreferences, scope = BUSINESS_SETTINGS_SCOPE) {
  return handleCommand(ctx, streams.settings(scope), settingsAggregate, (state) => decideSettings({ type: 'UpdatePaymentSettings', scope, payments }, state));
}

/** The business's billing settings, or (scope: a facility's id) that facility's own; null: follow the business's (or the defaults). */
export function updateBillingSettings(ctx: CommandContext, settings: BillingSettings | null, scope = BUSINESS_SETTINGS_SCOPE) {
  return handleCommand(ctx, streams.settings(scope), settingsAggregate, (state) => decideSettings({ type: 'UpdateBillingSettings', scope, settings }, state));
}

/** The business's delinquency schedule, or (scope: a facility's id) that facility's own; null: follow the business's (or the default). */
export function updateDelinquencySettings(ctx: CommandContext, steps: readonly DelinquencyStep[] | null, scope = BUSINESS_SETTINGS_SCOPE) {
  return handleCommand(ctx, streams.settings(scope), settingsAggregate, (state) => decideSettings({ type: 'UpdateDelinquencySettings', scope, steps }, state));
}

/** Whether every staff member must sign in with two factors (the business's scope only). */
export function updateSecuritySettings(ctx: CommandContext, twoFactorRequired: boolean) {
  const scope = BUSINESS_SETTINGS_SCOPE;
  return handleCommand(ctx, streams.settings(scope), settingsAggregate, (state) =>
    decideSettings({ type: 'UpdateSecuritySettings', scope, twoFactorRequired }, state),
  );
}

/** The business's protection plans, or (scope: a facility's id) that facility's own; null: follow the business's (or none). */
export function updateProtectionSettings(ctx: CommandContext, settings: ProtectionSettings | null, scope = BUSINESS_SETTINGS_SCOPE) {
  return handleCommand(ctx, streams.settings(scope), settingsAggregate, (state) =>
    decideSettings({ type: 'UpdateProtectionSettings', scope, settings }, state),
  );
}

/** The business's promotions, all of them (the list replaces the one before). */
export function updatePromotions(ctx: CommandContext, promotions: readonly Promotion[]) {
  const scope = BUSINESS_SETTINGS_SCOPE;
  return handleCommand(ctx, streams.settings(scope), settingsAggregate, (state) => decideSettings({ type: 'UpdatePromotions', scope, promotions }, state));
}

/** The business's additional lease terms (facilityId null), or a facility's own; terms null: follow the business's (or none). */
export function updateLeaseTerms(ctx: CommandContext, terms: LeaseTerms | null, facilityId: string | null) {
  const scope = facilityId ?? BUSINESS_SETTINGS_SCOPE;
  return handleCommand(ctx, streams.settings(scope), settingsAggregate, (state) => decideSettings({ type: 'UpdateLeaseTerms', scope, terms }, state));
}
