import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { decideSettings, type SettingsCommand } from './businessLogic.ts';
import { evolveSettings, initialSettingsState } from './settings.ts';

const given = (...events: DomainEvent[]) => ({
  when: (command: SettingsCommand) => decideSettings(command, events.reduce(evolveSettings, initialSettingsState)),
});

const scope = 'business';
const profile = { name: 'Riverside Self Storage', phone: '(503) 555-0100', email: 'office@riverside.test' };
const allAlertsOn = { overduePaymentAlerts: true, lowBatteryAlerts: true, newCustomerAlerts: true };

describe('business profile', () => {
  it('records a new profile', () => {
    expect(given().when({ type: 'UpdateBusinessProfile', scope, profile })).toEqual([{ type: 'business_profile_updated', data: { scope, ...profile } }]);
  });

  it('records nothing when the profile is unchanged', () => {
    const saved: DomainEvent = { type: 'business_profile_updated', data: { scope, ...profile } };
    expect(given(saved).when({ type: 'UpdateBusinessProfile', scope, profile })).toEqual([]);
  });
});

describe('notification preferences', () => {
  it('starts with every alert on, so saving them all on records nothing', () => {
    expect(given().when({ type: 'UpdateNotificationPreferences', scope, preferences: allAlertsOn })).toEqual([]);
  });

  it('records a toggle switched off, and on again', () => {
    const newCustomersOff = { ...allAlertsOn, newCustomerAlerts: false };
    const switchedOff: DomainEvent = { type: 'notification_preferences_updated', data: { scope, ...newCustomersOff } };
    expect(given().when({ type: 'UpdateNotificationPreferences', scope, preferences: newCustomersOff })).toEqual([switchedOff]);
    expect(given(switchedOff).when({ type: 'UpdateNotificationPreferences', scope, preferences: allAlertsOn })).toEqual([
      { type: 'notification_preferences_updated', data: { scope, ...allAlertsOn } },
    ]);
  });
});

describe('payment settings', () => {
  it('starts with automatic charging on and a 25.00 late fee', () => {
    expect(given().when({ type: 'UpdatePaymentSettings', scope, payments: { automaticCharging: true, lateFeeAmount: '25.00' } })).toEqual([]);
  });

  it('records a new late fee', () => {
    const payments = { automaticCharging: true, lateFeeAmount: '30.50' };
    expect(given().when({ type: 'UpdatePaymentSettings', scope, payments })).toEqual([{ type: 'payment_settings_updated', data: { scope, ...payments } }]);
  });
});

describe('billing settings', () => {
  const billing = {
    billingDay: 'first' as const,
    issueDaysBefore: 5,
    graceDays: 10,
    lateFee: { kind: 'fixed' as const, amount: '30.00' },
    adminFee: '15.00',
    prorateFirstMonth: true,
    billNextMonthAfterDay: null,
    rentChangeNoticeDays: 30,
    salesTax: { rent: '0', adminFee: '0', lateFee: '0', merchandise: '0' },
  };

  it("keeps the Payments card's late fee in step with the business's fixed fee, in the same append", () => {
    expect(given().when({ type: 'UpdateBillingSettings', scope, settings: billing })).toEqual([
      { type: 'billing_settings_updated', data: { scope, settings: billing } },
      { type: 'payment_settings_updated', data: { scope, automaticCharging: true, lateFeeAmount: '30.00' } },
    ]);
  });

  it('leaves the Payments card alone for a percentage fee, a fee it already shows, or a facility', () => {
    const percent = { ...billing, lateFee: { kind: 'percent' as const, percent: '10', minimum: '20.00' } };
    expect(given().when({ type: 'UpdateBillingSettings', scope, settings: percent })).toHaveLength(1);
    const same = { ...billing, lateFee: { kind: 'fixed' as const, amount: '25.00' } };
    expect(given().when({ type: 'UpdateBillingSettings', scope, settings: same })).toHaveLength(1);
    expect(given().when({ type: 'UpdateBillingSettings', scope: 'a-facility-id', settings: billing })).toHaveLength(1);
  });
});

describe('delinquency schedule', () => {
  const steps = [
    { kind: 'late_notice' as const, day: 5, threshold: '0.00' },
    { kind: 'lockout' as const, day: 15, threshold: '50.00' },
  ];

  it('records a schedule, nothing when it is saved again unchanged, and a facility going back to the business', () => {
    const saved: DomainEvent = { type: 'delinquency_settings_updated', data: { scope, steps } };
    expect(given().when({ type: 'UpdateDelinquencySettings', scope, steps })).toEqual([saved]);
    expect(given(saved).when({ type: 'UpdateDelinquencySettings', scope, steps })).toEqual([]);
    const own: DomainEvent = { type: 'delinquency_settings_updated', data: { scope: 'a-facility-id', steps } };
    expect(given(own).when({ type: 'UpdateDelinquencySettings', scope: 'a-facility-id', steps: null })).toEqual([
      { type: 'delinquency_settings_updated', data: { scope: 'a-facility-id', steps: null } },
    ]);
    expect(given().when({ type: 'UpdateDelinquencySettings', scope: 'a-facility-id', steps: null })).toEqual([]);
  });
});

describe('security settings', () => {
  it('records requiring two-factor sign-in, and nothing when it is saved unchanged', () => {
    const required: DomainEvent = { type: 'security_settings_updated', data: { scope, twoFactorRequired: true } };
    expect(given().when({ type: 'UpdateSecuritySettings', scope, twoFactorRequired: false })).toEqual([]);
    expect(given().when({ type: 'UpdateSecuritySettings', scope, twoFactorRequired: true })).toEqual([required]);
    expect(given(required).when({ type: 'UpdateSecuritySettings', scope, twoFactorRequired: true })).toEqual([]);
  });
});

describe('protection plans and promotions', () => {
  const basic = { planId: '7d1c2b7e-0000-4000-8000-000000000001', name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' };
  const plans = { plans: [basic], defaultPlanId: basic.planId, enrollAfterDays: 30 };
  const offer = {
    promotionId: '7d1c2b7e-0000-4000-8000-000000000002',
    name: 'First month free',
    terms: { kind: 'percent_off' as const, percent: '100', months: 1 },
    channel: 'both' as const,
    facilityIds: [],
    unitSizes: [],
    startsOn: null,
    endsOn: null,
    active: true,
  };

  it('records a scope’s plans, nothing when they are saved unchanged, and a facility going back to the business’s', () => {
    const saved: DomainEvent = { type: 'protection_settings_updated', data: { scope: 'a-facility-id', settings: plans } };
    expect(given().when({ type: 'UpdateProtectionSettings', scope: 'a-facility-id', settings: plans })).toEqual([saved]);
    expect(given(saved).when({ type: 'UpdateProtectionSettings', scope: 'a-facility-id', settings: plans })).toEqual([]);
    expect(given(saved).when({ type: 'UpdateProtectionSettings', scope: 'a-facility-id', settings: null })).toEqual([
      { type: 'protection_settings_updated', data: { scope: 'a-facility-id', settings: null } },
    ]);
  });

  it('records the business’s promotions, nothing when unchanged, and refuses them on a facility’s scope', () => {
    const saved: DomainEvent = { type: 'promotions_updated', data: { scope, promotions: [offer] } };
    expect(given().when({ type: 'UpdatePromotions', scope, promotions: [offer] })).toEqual([saved]);
    expect(given(saved).when({ type: 'UpdatePromotions', scope, promotions: [offer] })).toEqual([]);
    expect(() => given().when({ type: 'UpdatePromotions', scope: 'a-facility-id', promotions: [offer] })).toThrow(/belong to the business/);
  });
});
