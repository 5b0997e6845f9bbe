import { BillingSettings, type BillingSettingsAnswer, defaultBillingSettings } from '@storage/contracts/billing';
import { type DelinquencySettingsAnswer, DelinquencyStep, effectiveDelinquencySteps } from '@storage/contracts/delinquency';
import { Promotion } from '@storage/contracts/promotions';
import { effectiveProtectionSettings, ProtectionSettings, type ProtectionSettingsAnswer } from '@storage/contracts/protection';
import { BUSINESS_SETTINGS_SCOPE, defaultSettings, maskPublishableKey, type Settings } from '@storage/contracts/settings';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

const SettingsRow = z.object({
  business_name: z.string().nullable(),
  business_phone: z.string().nullable(),
  business_email: z.string().nullable(),
  overdue_payment_alerts: z.boolean(),
  low_battery_alerts: z.boolean(),
  new_customer_alerts: z.boolean(),
  automatic_charging: z.boolean(),
  late_fee_amount: z.string(),
  updated_at: z.string(),
});

/** The scope's settings as the read model holds them; the defaults until one is saved. */
export async function getSettings(pool: DatabasePool, scope: string, publishableKey: string | undefined): Promise<Settings> {
  const row = await pool.maybeOne(sql.type(SettingsRow)`
    SELECT business_name, business_phone, business_email, overdue_payment_alerts, low_battery_alerts, new_customer_alerts,
           automatic_charging, late_fee_amount, updated_at
    FROM settings WHERE scope = ${scope}`);
  const maskedKey = publishableKey ? maskPublishableKey(publishableKey) : null;
  if (!row) return { ...defaultSettings, payments: { ...defaultSettings.payments, publishableKey: maskedKey }, updatedAt: null };
  return {
    businessProfile: { name: row.business_name, phone: row.business_phone, email: row.business_email },
    notifications: {
      overduePaymentAlerts: row.overdue_payment_alerts,
      lowBatteryAlerts: row.low_battery_alerts,
      newCustomerAlerts: row.new_customer_alerts,
    },
    payments: { publishableKey: maskedKey, automaticCharging: row.automatic_charging, lateFeeAmount: row.late_fee_amount },
    updatedAt: row.updated_at,
  };
}

const BillingRow = z.object({ scope: z.string(), billing: BillingSettings.nullable(), late_fee_amount: z.string() });

/**
 * The business's billing settings and (with a facility) the facility's own, as the read model
 * holds them, and those that apply: the same choice as the engine's effectiveBillingSettings.
 */
export async function getBillingSettings(pool: DatabasePool, facilityId: string | null): Promise<BillingSettingsAnswer> {
  const scopes = facilityId ? [BUSINESS_SETTINGS_SCOPE, facilityId] : [BUSINESS_SETTINGS_SCOPE];
  const rows = await pool.any(sql.type(BillingRow)`
    SELECT scope, billing, late_fee_amount FROM settings WHERE scope = ANY(${sql.array(scopes, 'text')})`);
  const businessRow = rows.find((row) => row.scope === BUSINESS_SETTINGS_SCOPE);
  const business = businessRow?.billing ?? null;
  const facility = (facilityId && rows.find((row) => row.scope === facilityId)?.billing) || null;
  const lateFeeAmount = businessRow?.late_fee_amount ?? defaultSettings.payments.lateFeeAmount;
  return { business, facility, effective: facility ?? business ?? { ...defaultBillingSettings, lateFee: { kind: 'fixed', amount: lateFeeAmount } } };
}

const DelinquencyRow = z.object({ scope: z.string(), delinquency: z.array(DelinquencyStep).nullable() });

/** The business's delinquency schedule and (with a facility) the facility's own, and the one that applies (effectiveDelinquencySteps). */
export async function getDelinquencySettings(pool: DatabasePool, facilityId: string | null): Promise<DelinquencySettingsAnswer> {
  const scopes = facilityId ? [BUSINESS_SETTINGS_SCOPE, facilityId] : [BUSINESS_SETTINGS_SCOPE];
  const rows = await pool.any(sql.type(DelinquencyRow)`
    SELECT scope, delinquency FROM settings WHERE scope = ANY(${sql.array(scopes, 'text')})`);
  const business = rows.find((row) => row.scope === BUSINESS_SETTINGS_SCOPE)?.delinquency ?? null;
  const facility = (facilityId && rows.find((row) => row.scope === facilityId)?.delinquency) || null;
  return { business, facility, effective: [...effectiveDelinquencySteps(business, facility)] };
}

const ProtectionRow = z.object({ scope: z.string(), protection: ProtectionSettings.nullable() });

/** The business's protection plans and (with a facility) the facility's own, and those that apply (effectiveProtectionSettings). */
export async function getProtectionSettings(pool: DatabasePool, facilityId: string | null): Promise<ProtectionSettingsAnswer> {
  const scopes = facilityId ? [BUSINESS_SETTINGS_SCOPE, facilityId] : [BUSINESS_SETTINGS_SCOPE];
  const rows = await pool.any(sql.type(ProtectionRow)`
    SELECT scope, protection FROM settings WHERE scope = ANY(${sql.array(scopes, 'text')})`);
  const business = rows.find((row) => row.scope === BUSINESS_SETTINGS_SCOPE)?.protection ?? null;
  const facility = (facilityId && rows.find((row) => row.scope === facilityId)?.protection) || null;
  return { business, facility, effective: effectiveProtectionSettings(business, facility) };
}

const PromotionsRow = z.object({ promotions: z.array(Promotion) });

/** The business's promotions as the read model holds them; none until some are saved. */
export async function getPromotions(pool: DatabasePool): Promise<{ promotions: Promotion[] }> {
  const row = await pool.maybeOne(sql.type(PromotionsRow)`SELECT promotions FROM settings WHERE scope = ${BUSINESS_SETTINGS_SCOPE}`);
  return { promotions: row?.promotions ?? [] };
}

/** Those of the facility ids that name no facility, in the order given. */
export async function unknownFacilities(pool: DatabasePool, facilityIds: readonly string[]): Promise<string[]> {
  if (facilityIds.length === 0) return [];
  const known = new Set(
    await pool.anyFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM facilities WHERE id = ANY(${sql.array([...facilityIds], 'uuid')})`),
  );
  return facilityIds.filter((id) => !known.has(id.toLowerCase()));
}
