import type { BillingSettings } from '@storage/contracts/billing';
import { defaultSettings, type NotificationPreferences } from '@storage/contracts/settings';
import { defineProjection } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';
import type { RowOf } from '../read-model-tables.ts';

/** Changes the scope's settings; its row is made, with every default, the first time one is saved. */
async function save(rows: ReadModelSession, scope: string, at: string, changes: Partial<RowOf<'settings'>>) {
  const row = (await rows.get('settings', scope)) ?? {
    scope,
    business_name: defaultSettings.businessProfile.name,
    business_phone: defaultSettings.businessProfile.phone,
    business_email: defaultSettings.businessProfile.email,
    overdue_payment_alerts: defaultSettings.notifications.overduePaymentAlerts,
    low_battery_alerts: defaultSettings.notifications.lowBatteryAlerts,
    new_customer_alerts: defaultSettings.notifications.newCustomerAlerts,
    automatic_charging: defaultSettings.payments.automaticCharging,
    late_fee_amount: defaultSettings.payments.lateFeeAmount,
    billing: null,
    delinquency: null,
    two_factor_required: false,
    protection: null,
    promotions: [],
    updated_at: at,
  };
  rows.insert('settings', { ...row, ...changes, updated_at: at });
}

export const settingsProjection = defineProjection({
  name: 'settings',
  tables: ['settings'],
  canHandle: [
    'billing_settings_updated',
    'business_profile_updated',
    'delinquency_settings_updated',
    'notification_preferences_updated',
    'payment_settings_updated',
    'promotions_updated',
    'protection_settings_updated',
    'security_settings_updated',
  ],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'business_profile_updated': {
        const d = event.data;
        await save(rows, d.scope, at, { business_name: d.name, business_phone: d.phone, business_email: d.email });
        return;
      }
      case 'notification_preferences_updated': {
        const d = event.data;
        await save(rows, d.scope, at, {
          overdue_payment_alerts: d.overduePaymentAlerts,
          low_battery_alerts: d.lowBatteryAlerts,
          new_customer_alerts: d.newCustomerAlerts,
        });
        return;
      }
      case 'billing_settings_updated':
        await save(rows, event.data.scope, at, { billing: event.data.settings });
        return;
      case 'delinquency_settings_updated':
        await save(rows, event.data.scope, at, { delinquency: event.data.steps });
        return;
      case 'protection_settings_updated':
        await save(rows, event.data.scope, at, { protection: event.data.settings });
        return;
      case 'promotions_updated':
        await save(rows, event.data.scope, at, { promotions: event.data.promotions });
        return;
      case 'security_settings_updated':
        await save(rows, event.data.scope, at, { two_factor_required: event.data.twoFactorRequired });
        return;
      case 'payment_settings_updated': {
        const d = event.data;
        // One late fee, as the settings aggregate keeps it: the amount is also the billing settings' fixed fee.
        const billing = ((await rows.get('settings', d.scope))?.billing ?? null) as BillingSettings | null;
        const inStep = billing?.lateFee.kind === 'fixed' ? { ...billing, lateFee: { kind: 'fixed' as const, amount: d.lateFeeAmount } } : billing;
        await save(rows, d.scope, at, { automatic_charging: d.automaticCharging, late_fee_amount: d.lateFeeAmount, billing: inStep });
        return;
      }
    }
  },
});

/** The scope's alert toggles as the read model holds them (inside a batch: as of the event being applied). */
export async function notificationPreferencesOf(rows: ReadModelSession, scope: string): Promise<NotificationPreferences> {
  const row = await rows.get('settings', scope);
  if (!row) return defaultSettings.notifications;
  return {
    overduePaymentAlerts: row.overdue_payment_alerts,
    lowBatteryAlerts: row.low_battery_alerts,
    newCustomerAlerts: row.new_customer_alerts,
  };
}
