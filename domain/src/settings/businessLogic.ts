import type { DomainEvent } from '@storage/contracts/events';
import type { BusinessProfile, NotificationPreferences, PaymentPreferences } from '@storage/contracts/settings';
import type { SettingsState } from './settings.ts';

export type UpdateBusinessProfile = { type: 'UpdateBusinessProfile'; scope: string; profile: BusinessProfile };
export type UpdateNotificationPreferences = { type: 'UpdateNotificationPreferences'; scope: string; preferences: NotificationPreferences };
export type UpdatePaymentSettings = { type: 'UpdatePaymentSettings'; scope: string; payments: PaymentPreferences };
export type SettingsCommand = UpdateBusinessProfile | UpdateNotificationPreferences | UpdatePaymentSettings;

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

export function decideSettings(command: SettingsCommand, state: SettingsState): DomainEvent[] {
  switch (command.type) {
    case 'UpdateBusinessProfile':
      return updateBusinessProfile(command, state);
    case 'UpdateNotificationPreferences':
      return updateNotificationPreferences(command, state);
    case 'UpdatePaymentSettings':
      return updatePaymentSettings(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
    }
  }
}
