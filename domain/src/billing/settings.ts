import { type BillingSettings, DEFAULT_TIME_ZONE, defaultBillingSettings } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { BUSINESS_SETTINGS_SCOPE } from '@storage/contracts/settings';
import type { EventStore } from '@storage/eventstore/port';
import { loadAggregate } from '../commands/handle.ts';
import { customerAggregate } from '../customers/customer.ts';
import { facilityAggregate } from '../facilities/facility.ts';
import { type SettingsState, settingsAggregate } from '../settings/settings.ts';
import { todayIn } from './calendar.ts';

/**
 * The billing settings that apply to a facility: its own, else the business's, else the defaults
 * with the business's late fee (the Payments card's amount).
 */
export function effectiveBillingSettings(business: SettingsState, facility: SettingsState | null): BillingSettings {
  return facility?.billing ?? business.billing ?? { ...defaultBillingSettings, lateFee: { kind: 'fixed', amount: business.payments.lateFeeAmount } };
}

/** Reads the settings streams (the write side decides on its own streams, never on the read model). */
export async function billingSettingsFor(store: EventStore, facilityId: string | null): Promise<BillingSettings> {
  const business = (await loadAggregate(store, streams.settings(BUSINESS_SETTINGS_SCOPE), settingsAggregate)).state;
  const facility = facilityId ? (await loadAggregate(store, streams.settings(facilityId), settingsAggregate)).state : null;
  return effectiveBillingSettings(business, facility);
}

/** The zone a facility's days run in, from its stream (no facility: UTC). */
export async function facilityTimeZone(store: EventStore, facilityId: string | null): Promise<string> {
  if (facilityId === null) return DEFAULT_TIME_ZONE;
  const { state } = await loadAggregate(store, streams.facility(facilityId), facilityAggregate);
  return state.status === 'current' ? state.fields.timeZone : DEFAULT_TIME_ZONE;
}

/** Today in the zone of the customer's facility (UTC for a customer of no facility). */
export async function customerToday(store: EventStore, customerId: string, now: Date): Promise<string> {
  const { state } = await loadAggregate(store, streams.customer(customerId), customerAggregate);
  const facilityId = state.status === 'none' ? null : state.fields.facilityId;
  return todayIn(await facilityTimeZone(store, facilityId), now);
}
