import { type BillingSettings, BillingSettingsAnswer, defaultBillingSettings, UpdateBillingSettingsRequest } from '@storage/contracts/billing';
import { answer } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BillingSettingsCard } from '../../src/features/settings/components/billing-settings-card.tsx';
import { FACILITIES, fill, renderConsole } from './render.tsx';

// The Billing settings card, field by field: the business's defaults, a late fee the contract
// refuses, what a save sends; a facility that follows the business's (its fields disabled, showing
// the business's), given its own (a percent late fee) and back to the business's (null). That a
// save lasts past a reload, and the Payments card's late fee follows, is billing-engine.e2e.test.ts.

const riverside = FACILITIES[0]!;
const path = '/api/settings/billing';
const card = async () => within(await screen.findByTestId('billing-settings-card'));
const value = (field: HTMLElement) => (field as HTMLInputElement).value;
const business: BillingSettings = { ...defaultBillingSettings, issueDaysBefore: 7, graceDays: 5, lateFee: { kind: 'fixed', amount: '30.00' } };

describe("the Billing settings card: the business's", () => {
  it('shows the defaults, refuses a late fee that is not an amount, and sends the fields changed with the rest', async () => {
    const shown = answer('get', path, BillingSettingsAnswer, { business: null, facility: null, effective: defaultBillingSettings });
    const saved = answer('put', path, BillingSettingsAnswer, { business, facility: null, effective: business });
    const { user } = renderConsole(<BillingSettingsCard canChange />, { path: '/settings', api: [shown, saved] });
    const billing = await card();
    expect(value(await billing.findByLabelText('Grace Days Before the Late Fee'))).toBe('10');
    expect(value(billing.getByLabelText('Days Before Due an Invoice Is Issued'))).toBe('5');
    expect(value(billing.getByLabelText('Fixed Late Fee'))).toBe('25.00');
    expect(value(billing.getByLabelText('Also Bill Next Month for Move-Ins After Day'))).toBe('');
    // The business's own: no switch to follow anyone.
    expect(billing.queryByRole('switch', { name: "Use the business's settings" })).toBeNull();

    await fill(user, billing.getByLabelText('Days Before Due an Invoice Is Issued'), '7');
    await fill(user, billing.getByLabelText('Grace Days Before the Late Fee'), '5');
    await fill(user, billing.getByLabelText('Admin Fee at Move-In'), '15');
    await fill(user, billing.getByLabelText('Fixed Late Fee'), 'oops');
    await user.click(billing.getByRole('button', { name: 'Save Billing Settings' }));
    await billing.findByText(/^Late fee amount /);
    expect(saved.sent).toHaveLength(0);

    await fill(user, billing.getByLabelText('Fixed Late Fee'), '30.00');
    await fill(user, billing.getByLabelText('Also Bill Next Month for Move-Ins After Day'), '20');
    await user.click(billing.getByRole('button', { name: 'Save Billing Settings' }));
    await screen.findByText('Billing settings saved successfully');
    expect(UpdateBillingSettingsRequest.parse(saved.sent[0]!.body)).toEqual({
      facilityId: null,
      settings: {
        ...defaultBillingSettings,
        issueDaysBefore: 7,
        graceDays: 5,
        adminFee: '15.00',
        lateFee: { kind: 'fixed', amount: '30.00' },
        billNextMonthAfterDay: 20,
        signatureBeforeAccess: false,
        salesTax: { rent: '0', adminFee: '0', lateFee: '0', merchandise: '0' },
      },
    });
  });
});

describe("the Billing settings card: a facility's", () => {
  it("has a facility that follows the business's show them disabled, gives it its own (a percent late fee), and goes back with null", async () => {
    // The business's settings, and the facility's: none of its own.
    const following = answer('get', path, BillingSettingsAnswer, { business, facility: null, effective: business });
    const saved = answer('put', path, BillingSettingsAnswer, { business, facility: null, effective: business });
    const { user } = renderConsole(<BillingSettingsCard canChange />, { path: `/settings?facility=${riverside.id}`, api: [following, saved] });
    const billing = await card();
    const follow = await billing.findByRole('switch', { name: "Use the business's settings" });
    expect(follow.getAttribute('aria-checked')).toBe('true');
    expect(following.sent.map((r) => r.search.get('facilityId'))).toContain(riverside.id);
    const grace = billing.getByLabelText('Grace Days Before the Late Fee');
    expect(grace.hasAttribute('disabled')).toBe(true);
    expect(value(grace)).toBe('5');
    billing.getByText("This facility uses the business's billing settings.");

    await user.click(follow);
    expect(billing.getByLabelText('Grace Days Before the Late Fee').hasAttribute('disabled')).toBe(false);
    expect(billing.queryByText("This facility uses the business's billing settings.")).toBeNull();
    await user.click(billing.getByText('Percent of the rent, with a minimum'));
    await fill(user, billing.getByLabelText('Late Fee Percent'), '12.5');
    await fill(user, billing.getByLabelText('Minimum Late Fee'), '20');
    await fill(user, billing.getByLabelText('Grace Days Before the Late Fee'), '3');
    await user.click(billing.getByRole('button', { name: 'Save Billing Settings' }));
    await screen.findByText('Billing settings saved successfully');
    const own = UpdateBillingSettingsRequest.parse(saved.sent[0]!.body);
    expect(own.facilityId).toBe(riverside.id);
    expect(own.settings).toMatchObject({ graceDays: 3, issueDaysBefore: 7, lateFee: { kind: 'percent', percent: '12.5', minimum: '20.00' } });

    // Back to the business's: the fields show the business's again, and the save sends no settings of its own.
    await user.click(billing.getByRole('switch', { name: "Use the business's settings" }));
    expect(value(billing.getByLabelText('Grace Days Before the Late Fee'))).toBe('5');
    expect(value(billing.getByLabelText('Fixed Late Fee'))).toBe('30.00');
    await user.click(billing.getByRole('button', { name: 'Save Billing Settings' }));
    await waitFor(() => expect(saved.sent).toHaveLength(2));
    expect(saved.sent[1]!.body).toEqual({ facilityId: riverside.id, settings: null });
  });
});
