// What the Settings screen asks the API for, answered as a business on its defaults would be.

import { TwoFactorStatus } from '@storage/contracts/auth';
import { BillingSettingsAnswer, defaultBillingSettings } from '@storage/contracts/billing';
import { DelinquencySettingsAnswer, defaultDelinquencySteps } from '@storage/contracts/delinquency';
import { LeaseTermsAnswer, noLeaseTerms } from '@storage/contracts/lease-terms';
import { GatewayKey } from '@storage/contracts/locks';
import { MerchandiseItem } from '@storage/contracts/merchandise';
import { MessageTemplate } from '@storage/contracts/messages';
import { UpdatePromotionsRequest } from '@storage/contracts/promotions';
import { noProtectionPlans, ProtectionSettingsAnswer } from '@storage/contracts/protection';
import { SecuritySettings, Settings } from '@storage/contracts/settings';
import { type Answer, answer } from '@storage/testing/component-api';

export const defaultSettingsAnswer: Settings = {
  businessProfile: { name: 'Demo Storage', phone: null, email: null },
  notifications: { overduePaymentAlerts: true, lowBatteryAlerts: true, newCustomerAlerts: true },
  payments: { publishableKey: null, automaticCharging: true, lateFeeAmount: '25.00' },
  updatedAt: null,
};

export function settingsScreenAnswers(): Answer[] {
  return [
    answer('get', '/api/settings', Settings, defaultSettingsAnswer),
    answer('get', '/api/settings/billing', BillingSettingsAnswer, { business: null, facility: null, effective: defaultBillingSettings }),
    answer('get', '/api/settings/protection', ProtectionSettingsAnswer, { business: null, facility: null, effective: noProtectionPlans }),
    answer('get', '/api/settings/promotions', UpdatePromotionsRequest, { promotions: [] }),
    answer('get', '/api/settings/lease-terms', LeaseTermsAnswer, { business: null, facility: null, effective: noLeaseTerms }),
    answer('get', '/api/settings/delinquency', DelinquencySettingsAnswer, { business: null, facility: null, effective: [...defaultDelinquencySteps] }),
    answer('get', '/api/settings/security', SecuritySettings, { twoFactorRequired: false }),
    answer('get', '/api/auth/two-factor/status', TwoFactorStatus, { enabled: false, required: false, recoveryCodesLeft: null }),
    answer('get', '/api/message-templates', MessageTemplate.array(), []),
    answer('get', '/api/facilities/:facilityId/merchandise', MerchandiseItem.array(), []),
    answer('get', '/api/facilities/:facilityId/gateway-key', GatewayKey, { keyPrefix: 'gk_3f9a', createdAt: '2025-01-02T10:00:00.000Z' }),
  ];
}

/** A message the owner may reword, on its default wording. */
export const reservationConfirmedTemplate: MessageTemplate = {
  key: 'reservation_confirmed',
  label: 'Reservation confirmed',
  subject: 'Your reservation of unit {unitNumber} is confirmed',
  body: 'Hello {firstName},',
  isDefault: true,
  optional: true,
  defaultSubject: 'Your reservation of unit {unitNumber} is confirmed',
  defaultBody: 'Hello {firstName},',
};
