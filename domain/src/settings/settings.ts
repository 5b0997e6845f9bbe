import type { DomainEvent } from '@storage/contracts/events';
import { defaultSettings } from '@storage/contracts/settings';

export type SettingsState = typeof defaultSettings;

export const initialSettingsState: SettingsState = defaultSettings;

export function evolveSettings(state: SettingsState, event: DomainEvent): SettingsState {
  switch (event.type) {
    case 'business_profile_updated': {
      const { name, phone, email } = event.data;
      return { ...state, businessProfile: { name, phone, email } };
    }
    case 'notification_preferences_updated': {
      const { overduePaymentAlerts, lowBatteryAlerts, newCustomerAlerts } = event.data;
      return { ...state, notifications: { overduePaymentAlerts, lowBatteryAlerts, newCustomerAlerts } };
    }
    case 'payment_settings_updated': {
      const { automaticCharging, lateFeeAmount } = event.data;
      return { ...state, payments: { automaticCharging, lateFeeAmount } };
    }
    default:
      return state;
  }
}

export const settingsAggregate = { initial: initialSettingsState, evolve: evolveSettings };
