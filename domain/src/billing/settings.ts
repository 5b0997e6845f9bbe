import { type BillingSettings, DEFAULT_TIME_ZONE, defaultBillingSettings } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { effectiveLeaseTerms, type LeaseTerms } from '@storage/contracts/lease-terms';
import type { Promotion } from '@storage/contracts/promotions';
import { effectiveProtectionSettings, type ProtectionSettings } from '@storage/contracts/protection';
import { BUSINESS_SETTINGS_SCOPE } from '@storage/contracts/settings';
import { type EventStore, readStreams } from '@storage/eventstore/port';
import { type Aggregate, aggregateFrom, loadAggregate } from '../commands/handle.ts';
import { customerAggregate } from '../customers/customer.ts';
import { type FacilityFields, type FacilityState, facilityAggregate } from '../facilities/facility.ts';
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
  return (await facilityBilling(store, facilityId)).settings;
}

/** The zone of a facility's stream (no facility, or one that is gone: UTC). */
function zoneOf(facility: FacilityState): string {
  return facility.status === 'current' ? facility.fields.timeZone : DEFAULT_TIME_ZONE;
}

/** The zone a facility's days run in, from its stream (no facility: UTC). */
export async function facilityTimeZone(store: EventStore, facilityId: string | null): Promise<string> {
  if (facilityId === null) return DEFAULT_TIME_ZONE;
  return zoneOf((await loadAggregate(store, streams.facility(facilityId), facilityAggregate)).state);
}

/** What a lease agreement prints of its facility: who and where it is, and when renters may come in. */
export type FacilityParticulars = Pick<FacilityFields, 'name' | 'address' | 'managerName' | 'accessHours'>;

/** What applies at a facility: its zone, billing settings, protection plans, the business's promotions and the additional lease terms. */
export interface FacilityTerms {
  /** The facility as its stream holds it; null for no facility, or one whose stream holds none. */
  facility: FacilityParticulars | null;
  timeZone: string;
  settings: BillingSettings;
  protection: ProtectionSettings;
  promotions: readonly Promotion[];
  leaseTerms: LeaseTerms;
}

/** A facility's particulars, zone, billing settings, protection plans, the business's promotions and lease terms, its three streams read in one statement. */
export async function facilityBilling(store: EventStore, facilityId: string | null): Promise<FacilityTerms> {
  const business = streams.settings(BUSINESS_SETTINGS_SCOPE);
  const own = facilityId ? { facility: streams.facility(facilityId), settings: streams.settings(facilityId) } : null;
  const read = await readStreams(store, own ? [business, own.facility, own.settings] : [business]);
  const state = <S>(name: string, aggregate: Aggregate<S>) => aggregateFrom(read.get(name) ?? [], aggregate).state;
  const businessSettings = state(business, settingsAggregate);
  const facilitySettings = own ? state(own.settings, settingsAggregate) : null;
  const facility = own ? state(own.facility, facilityAggregate) : null;
  return {
    facility:
      facility?.status === 'current'
        ? { name: facility.fields.name, address: facility.fields.address, managerName: facility.fields.managerName, accessHours: facility.fields.accessHours }
        : null,
    timeZone: facility ? zoneOf(facility) : DEFAULT_TIME_ZONE,
    settings: effectiveBillingSettings(businessSettings, facilitySettings),
    protection: effectiveProtectionSettings(businessSettings.protection, facilitySettings?.protection ?? null),
    promotions: businessSettings.promotions,
    leaseTerms: effectiveLeaseTerms(businessSettings.leaseTerms, facilitySettings?.leaseTerms ?? null),
  };
}

/** Today in the zone of the customer's facility (UTC for a customer of no facility). */
export async function customerToday(store: EventStore, customerId: string, now: Date): Promise<string> {
  const { state } = await loadAggregate(store, streams.customer(customerId), customerAggregate);
  const facilityId = state.status === 'none' ? null : state.fields.facilityId;
  return todayIn(await facilityTimeZone(store, facilityId), now);
}

/** The business's own lease terms, the facility's own (null: it follows the business's) and those that apply, from the settings streams. */
export async function leaseTermsOf(
  store: EventStore,
  facilityId: string | null,
): Promise<{ business: LeaseTerms | null; facility: LeaseTerms | null; effective: LeaseTerms }> {
  const business = streams.settings(BUSINESS_SETTINGS_SCOPE);
  const own = facilityId ? streams.settings(facilityId) : null;
  const read = await readStreams(store, own ? [business, own] : [business]);
  const terms = (name: string) => aggregateFrom(read.get(name) ?? [], settingsAggregate).state.leaseTerms;
  const businessTerms = terms(business);
  const facilityTerms = own ? terms(own) : null;
  return { business: businessTerms, facility: facilityTerms, effective: effectiveLeaseTerms(businessTerms, facilityTerms) };
}
