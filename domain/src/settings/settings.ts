import type { BillingSettings } from '@storage/contracts/billing';
import type { DelinquencyStep } from '@storage/contracts/delinquency';
import type { DomainEvent } from '@storage/contracts/events';
import type { LeaseTerms } from '@storage/contracts/lease-terms';
import type { Promotion } from '@storage/contracts/promotions';
import type { ProtectionSettings } from '@storage/contracts/protection';
import { defaultSettings } from '@storage/contracts/settings';

/**
 * billing: the scope's own billing settings; null: the defaults (business) or the business's (a facility).
 * delinquency: the scope's own delinquency schedule; null likewise.
 * twoFactorRequired: every staff member must sign in with two factors (the business's scope).
 * protection: the scope's own protection plans; null: none (business) or the business's (a facility).
 * promotions: the business's promotions (the business's scope).
 * leaseTerms: the scope's own additional lease terms; null: none (business) or the business's (a facility).
 */
export type SettingsState = typeof defaultSettings & {
  billing: BillingSettings | null;
  delinquency: readonly DelinquencyStep[] | null;
  twoFactorRequired: boolean;
  protection: ProtectionSettings | null;
  promotions: readonly Promotion[];
  leaseTerms: LeaseTerms | null;
};

export const initialSettingsState: SettingsState = {
  ...defaultSettings,
  billing: null,
  delinquency: null,
  twoFactorRequired: false,
  protection: null,
  promotions: [],
  leaseTerms: null,
};

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
      // One late fee: the Payments card's amount is the billing settings' fixed fee.
      const billing =
        state.billing?.lateFee.kind === 'fixed' ? { ...state.billing, lateFee: { kind: 'fixed' as const, amount: lateFeeAmount } } : state.billing;
      return { ...state, payments: { automaticCharging, lateFeeAmount }, billing };
    }
    case 'billing_settings_updated':
      return { ...state, billing: event.data.settings };
    case 'delinquency_settings_updated':
      return { ...state, delinquency: event.data.steps };
    case 'security_settings_updated':
      return { ...state, twoFactorRequired: event.data.twoFactorRequired };
    case 'protection_settings_updated':
      return { ...state, protection: event.data.settings };
    case 'promotions_updated':
      return { ...state, promotions: event.data.promotions };
    case 'lease_terms_updated':
      return { ...state, leaseTerms: event.data.terms };
    default:
      return state;
  }
}

export const settingsAggregate = { initial: initialSettingsState, evolve: evolveSettings };
