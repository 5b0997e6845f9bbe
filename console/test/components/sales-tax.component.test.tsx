import { BillingSettingsAnswer, defaultBillingSettings, UpdateBillingSettingsRequest } from '@storage/contracts/billing';
import { answer } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BillingSettingsCard } from '../../src/features/settings/components/billing-settings-card.tsx';
import { FACILITIES, fill, renderConsole } from './render.tsx';

// Sales tax: its section of the Billing settings card (per facility scope, read-only for roles that
// may not change billing settings).

const riverside = FACILITIES[0]!;
const own = { ...defaultBillingSettings, salesTax: { rent: '8.875', adminFee: '0', lateFee: '0' } };
const card = async () => within((await screen.findByText('Billing', { selector: '.ant-card-head-title *' })).closest('.ant-card') as HTMLElement);

describe('the Billing settings card: Sales Tax', () => {
  it("shows the facility's rates, refuses a rate over 25% and saves the rates with its own settings", async () => {
    const scoped = answer('get', '/api/settings/billing', BillingSettingsAnswer, { business: null, facility: own, effective: own });
    const saved = answer('put', '/api/settings/billing', BillingSettingsAnswer, { business: null, facility: own, effective: own });
    const { user } = renderConsole(<BillingSettingsCard canChange />, { path: `/settings?facility=${riverside.id}`, api: [scoped, saved] });
    const billing = await card();
    await billing.findByText('Sales Tax');
    expect((await billing.findByLabelText('Tax on Rent')).getAttribute('value')).toBe('8.875');
    await fill(user, billing.getByLabelText('Tax on the Late Fee'), '30');
    await user.click(billing.getByRole('button', { name: 'Save Billing Settings' }));
    await billing.findByText('Tax on the late fee must be at most 25');
    expect(saved.sent).toHaveLength(0);

    await fill(user, billing.getByLabelText('Tax on the Late Fee'), '1.5');
    await fill(user, billing.getByLabelText('Tax on the Admin Fee'), '');
    await user.click(billing.getByRole('button', { name: 'Save Billing Settings' }));
    await screen.findByText('Billing settings saved successfully');
    const body = UpdateBillingSettingsRequest.parse(saved.sent[0]!.body);
    expect(body.facilityId).toBe(riverside.id);
    expect(body.settings?.salesTax).toEqual({ rent: '8.875', adminFee: '0', lateFee: '1.5' });
  });

  it('is read-only for a role that may not change billing settings', async () => {
    const scoped = answer('get', '/api/settings/billing', BillingSettingsAnswer, { business: own, facility: null, effective: own });
    renderConsole(<BillingSettingsCard canChange={false} />, { role: 'clerk', path: '/settings', api: [scoped] });
    const billing = await card();
    for (const label of ['Tax on Rent', 'Tax on the Admin Fee', 'Tax on the Late Fee']) {
      expect((await billing.findByLabelText(label)).hasAttribute('disabled')).toBe(true);
    }
    expect(billing.queryByRole('button', { name: 'Save Billing Settings' })).toBeNull();
  });
});
