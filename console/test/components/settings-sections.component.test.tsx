import { ReadModelFailure } from '@storage/contracts/read-model';
import { NotificationPreferences, PaymentSettingsRequest, Settings } from '@storage/contracts/settings';
import { StaffMember } from '@storage/contracts/staff';
import { answer, answerPage } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import SettingsPage from '../../src/app/routes/settings.tsx';
import { FACILITIES, fill, renderConsole } from './render.tsx';
import { defaultSettingsAnswer, settingsScreenAnswers } from './settings-fixtures.ts';

// The Settings screen of a business on its defaults, for the owner: what each section shows, and
// what saving the notifications and the payment settings sends. That the saves last past a reload
// is settings.e2e.test.ts.

/** The card titled `title`. */
const card = async (title: string) => within((await screen.findByText(title, { selector: '.ant-card-head-title *' })).closest('.ant-card') as HTMLElement);
const checked = (name: string) => screen.getByRole('switch', { name }).getAttribute('aria-checked');

describe('Settings on their defaults, for the owner', () => {
  it('shows each section with its defaults, and sends the notification preferences and payment settings saved', async () => {
    const notificationsSaved = answer('put', '/api/settings/notifications', Settings, {
      ...defaultSettingsAnswer,
      notifications: { overduePaymentAlerts: true, lowBatteryAlerts: true, newCustomerAlerts: false },
    });
    const paymentsSaved = answer('put', '/api/settings/payments', Settings, {
      ...defaultSettingsAnswer,
      payments: { ...defaultSettingsAnswer.payments, lateFeeAmount: '30.50' },
    });
    const { user } = renderConsole(<SettingsPage />, {
      path: '/settings',
      api: [
        notificationsSaved,
        paymentsSaved,
        // The owner's screen also lists the staff and the read model's failures.
        answerPage('/api/staff', StaffMember, []),
        answer('get', '/api/read-model/failures', ReadModelFailure.array(), []),
        ...settingsScreenAnswers(),
      ],
    });
    for (const title of ['Business Profile', 'Notifications', 'Security', 'Payment Settings', 'Facilities']) await card(title);
    for (const name of ['Overdue Payment Alerts', 'Low Battery Alerts', 'New Customer Alerts', 'Automatic Charging']) expect(checked(name), name).toBe('true');
    expect(screen.getByTestId('publishable-key').textContent).toBe('Built-in test provider (no Stripe key configured)');
    const payments = await card('Payment Settings');
    expect((payments.getByLabelText('Late Fee Amount') as HTMLInputElement).value).toBe('25.00');
    expect(await screen.findAllByTestId('facility-row')).toHaveLength(FACILITIES.length);

    await user.click(screen.getByRole('switch', { name: 'New Customer Alerts' }));
    await user.click((await card('Notifications')).getByRole('button', { name: 'Save Preferences' }));
    await screen.findByText('Notification preferences saved successfully');
    expect(NotificationPreferences.parse(notificationsSaved.sent[0]!.body)).toEqual({
      overduePaymentAlerts: true,
      lowBatteryAlerts: true,
      newCustomerAlerts: false,
    });

    await fill(user, payments.getByLabelText('Late Fee Amount'), '30.5');
    await user.click(payments.getByRole('button', { name: 'Save Payment Settings' }));
    await screen.findByText('Payment settings saved successfully');
    expect(PaymentSettingsRequest.parse(paymentsSaved.sent[0]!.body)).toMatchObject({ automaticCharging: true, lateFeeAmount: '30.50' });
  });
});
