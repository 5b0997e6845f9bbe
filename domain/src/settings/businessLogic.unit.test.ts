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
