import { defaultSettings } from '@storage/contracts/settings';
import { sql, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import type { Projection } from '../projection.ts';

/** Makes the scope's row, with every default, the first time one of its settings is saved. */
async function ensureSettingsRow(tx: DatabaseTransactionConnection, scope: string, at: string) {
  await tx.query(sql.unsafe`
    INSERT INTO settings (scope, business_name, business_phone, business_email, overdue_payment_alerts, low_battery_alerts,
                          new_customer_alerts, automatic_charging, late_fee_amount, updated_at)
    VALUES (${scope}, ${defaultSettings.businessProfile.name}, ${defaultSettings.businessProfile.phone}, ${defaultSettings.businessProfile.email},
            ${defaultSettings.notifications.overduePaymentAlerts}, ${defaultSettings.notifications.lowBatteryAlerts},
            ${defaultSettings.notifications.newCustomerAlerts}, ${defaultSettings.payments.automaticCharging}, ${defaultSettings.payments.lateFeeAmount}, ${at})
    ON CONFLICT (scope) DO NOTHING`);
}

export const settingsProjection: Projection = {
  name: 'settings',
  tables: ['settings'],
  async apply(tx, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'business_profile_updated': {
        const d = event.data;
        await ensureSettingsRow(tx, d.scope, at);
        await tx.query(sql.unsafe`
          UPDATE settings SET business_name = ${d.name}, business_phone = ${d.phone}, business_email = ${d.email}, updated_at = ${at}
          WHERE scope = ${d.scope}`);
        return;
      }
      case 'notification_preferences_updated': {
        const d = event.data;
        await ensureSettingsRow(tx, d.scope, at);
        await tx.query(sql.unsafe`
          UPDATE settings SET overdue_payment_alerts = ${d.overduePaymentAlerts}, low_battery_alerts = ${d.lowBatteryAlerts},
                              new_customer_alerts = ${d.newCustomerAlerts}, updated_at = ${at}
          WHERE scope = ${d.scope}`);
        return;
      }
      case 'payment_settings_updated': {
        const d = event.data;
        await ensureSettingsRow(tx, d.scope, at);
        await tx.query(sql.unsafe`
          UPDATE settings SET automatic_charging = ${d.automaticCharging}, late_fee_amount = ${d.lateFeeAmount}, updated_at = ${at}
          WHERE scope = ${d.scope}`);
        return;
      }
    }
  },
};

const AlertPreferencesRow = z.object({
  overdue_payment_alerts: z.boolean(),
  low_battery_alerts: z.boolean(),
  new_customer_alerts: z.boolean(),
});

/** The scope's alert toggles as the read model holds them now (inside a batch: as of the event being applied). */
export async function notificationPreferencesOf(tx: DatabaseTransactionConnection, scope: string) {
  const row = await tx.maybeOne(sql.type(AlertPreferencesRow)`
    SELECT overdue_payment_alerts, low_battery_alerts, new_customer_alerts FROM settings WHERE scope = ${scope}`);
  if (!row) return defaultSettings.notifications;
  return {
    overduePaymentAlerts: row.overdue_payment_alerts,
    lowBatteryAlerts: row.low_battery_alerts,
    newCustomerAlerts: row.new_customer_alerts,
  };
}
