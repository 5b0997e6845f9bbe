import type { BillingSettings } from '@storage/contracts/billing';
import type { DelinquencyStep } from '@storage/contracts/delinquency';
import type { DomainEvent } from '@storage/contracts/events';
import type { LeaseTerms } from '@storage/contracts/lease-terms';
import type { Promotion } from '@storage/contracts/promotions';
import type { ProtectionSettings } from '@storage/contracts/protection';
import { BUSINESS_SETTINGS_SCOPE, type BusinessProfile, type NotificationPreferences, type PaymentPreferences } from '@storage/contracts/settings';
import { DomainRuleError } from '../commands/errors.ts';
import type { SettingsState } from './settings.ts';

export type UpdateBusinessProfile = { type: 'UpdateBusinessProfile'; scope: string; profile: BusinessProfile };
export type UpdateNotificationPreferences = { type: 'UpdateNotificationPreferences'; scope: string; preferences: NotificationPreferences };
export type UpdatePaymentSettings = { type: 'UpdatePaymentSettings'; scope: string; payments: PaymentPreferences };
/** null: a facility follows the business's settings again (the business: the defaults). */
export type UpdateBillingSettings = { type: 'UpdateBillingSettings'; scope: string; settings: BillingSettings | null };
/** null: a facility follows the business's schedule again (the business: the default). Validated by the contract (DelinquencySchedule). */
export type UpdateDelinquencySettings = { type: 'UpdateDelinquencySettings'; scope: string; steps: readonly DelinquencyStep[] | null };
/** Whether every staff member must sign in with two factors. */
export type UpdateSecuritySettings = { type: 'UpdateSecuritySettings'; scope: string; twoFactorRequired: boolean };
/** null: a facility follows the business's plans again (the business: no plans). Validated by the contract (ProtectionSettings). */
export type UpdateProtectionSettings = { type: 'UpdateProtectionSettings'; scope: string; settings: ProtectionSettings | null };
/** The business's promotions, all of them. Validated by the contract (Promotions). */
export type UpdatePromotions = { type: 'UpdatePromotions'; scope: string; promotions: readonly Promotion[] };
/** null: a facility follows the business's lease terms again (the business: none). Validated by the contract (LeaseTerms). */
export type UpdateLeaseTerms = { type: 'UpdateLeaseTerms'; scope: string; terms: LeaseTerms | null };
export type SettingsCommand =
  | UpdateProtectionSettings
  | UpdateLeaseTerms
  | UpdatePromotions
  | UpdateBusinessProfile
  | UpdateNotificationPreferences
  | UpdatePaymentSettings
  | UpdateBillingSettings
  | UpdateDelinquencySettings
  | UpdateSecuritySettings;

function sameValues<T extends object>(current: T, next: T): boolean {
  return Object.entries(next).every(([key, value]) => current[key as keyof T] === value);
}

export function updateBusinessProfile(command: UpdateBusinessProfile, state: SettingsState): DomainEvent[] {
  if (sameValues(state.businessProfile, command.profile)) return [];
  return [{ type: 'business_profile_updated', data: { scope: command.scope, ...command.profile } }];
}

export function updateNotificationPreferences(command: UpdateNotificationPreferences, state: SettingsState): DomainEvent[] {
  if (sameValues(state.notifications, command.preferences)) return [];
  return [{ type: 'notification_preferences_updated', data: { scope: command.scope, ...command.preferences } }];
}

export function updatePaymentSettings(command: UpdatePaymentSettings, state: SettingsState): DomainEvent[] {
  if (sameValues(state.payments, command.payments)) return [];
  return [{ type: 'payment_settings_updated', data: { scope: command.scope, ...command.payments } }];
}

/**
 * One late fee: a fixed fee saved with the billing settings is also the Payments card's amount
 * (payment_settings_updated carries it the other way), in the same append.
 */
export function updateBillingSettings(command: UpdateBillingSettings, state: SettingsState): DomainEvent[] {
  if (JSON.stringify(state.billing) === JSON.stringify(command.settings)) return [];
  const saved: DomainEvent = { type: 'billing_settings_updated', data: { scope: command.scope, settings: command.settings } };
  const lateFee = command.settings?.lateFee;
  if (command.scope !== BUSINESS_SETTINGS_SCOPE || lateFee?.kind !== 'fixed' || lateFee.amount === state.payments.lateFeeAmount) return [saved];
  return [saved, { type: 'payment_settings_updated', data: { scope: command.scope, ...state.payments, lateFeeAmount: lateFee.amount } }];
}

/** A schedule saved as given (kinds unique, days increasing: the contract checked); the same one again records nothing. */
export function updateDelinquencySettings(command: UpdateDelinquencySettings, state: SettingsState): DomainEvent[] {
  const steps = command.steps?.map(({ kind, day, threshold }) => ({ kind, day, threshold })) ?? null;
  if (JSON.stringify(state.delinquency) === JSON.stringify(steps)) return [];
  return [{ type: 'delinquency_settings_updated', data: { scope: command.scope, steps } }];
}

export function updateSecuritySettings(command: UpdateSecuritySettings, state: SettingsState): DomainEvent[] {
  if (state.twoFactorRequired === command.twoFactorRequired) return [];
  return [{ type: 'security_settings_updated', data: { scope: command.scope, twoFactorRequired: command.twoFactorRequired } }];
}

export function updateProtectionSettings(command: UpdateProtectionSettings, state: SettingsState): DomainEvent[] {
  if (JSON.stringify(state.protection) === JSON.stringify(command.settings)) return [];
  return [{ type: 'protection_settings_updated', data: { scope: command.scope, settings: command.settings } }];
}

/** The event names the facility rather than the scope: null is the business's own terms. */
export function updateLeaseTerms(command: UpdateLeaseTerms, state: SettingsState): DomainEvent[] {
  if (JSON.stringify(state.leaseTerms) === JSON.stringify(command.terms)) return [];
  const facilityId = command.scope === BUSINESS_SETTINGS_SCOPE ? null : command.scope;
  return [{ type: 'lease_terms_updated', data: { facilityId, terms: command.terms } }];
}

/** Promotions belong to the business: a facility's scope is refused (a promotion names the facilities it applies at). */
export function updatePromotions(command: UpdatePromotions, state: SettingsState): DomainEvent[] {
  if (command.scope !== BUSINESS_SETTINGS_SCOPE) throw new DomainRuleError('scope: promotions belong to the business, not a facility', 'scope');
  if (JSON.stringify(state.promotions) === JSON.stringify(command.promotions)) return [];
  return [{ type: 'promotions_updated', data: { scope: command.scope, promotions: [...command.promotions] } }];
}

export function decideSettings(command: SettingsCommand, state: SettingsState): DomainEvent[] {
  switch (command.type) {
    case 'UpdateProtectionSettings':
      return updateProtectionSettings(command, state);
    case 'UpdatePromotions':
      return updatePromotions(command, state);
    case 'UpdateLeaseTerms':
      return updateLeaseTerms(command, state);
    case 'UpdateBusinessProfile':
      return updateBusinessProfile(command, state);
    case 'UpdateNotificationPreferences':
      return updateNotificationPreferences(command, state);
    case 'UpdatePaymentSettings':
      return updatePaymentSettings(command, state);
    case 'UpdateBillingSettings':
      return updateBillingSettings(command, state);
    case 'UpdateDelinquencySettings':
      return updateDelinquencySettings(command, state);
    case 'UpdateSecuritySettings':
      return updateSecuritySettings(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
    }
  }
}
