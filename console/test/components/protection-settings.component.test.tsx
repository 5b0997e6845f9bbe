import { type ProtectionSettings, ProtectionSettingsAnswer, UpdateProtectionSettingsRequest } from '@storage/contracts/protection';
import { answer, refuse } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProtectionSettingsCard } from '../../src/features/settings/components/protection-settings-card.tsx';
import { FACILITIES, fill, renderConsole } from './render.tsx';

// Protection Plans: the business's tiers, or a facility's own, or the facility following the
// business's; the form refuses what the contract refuses before anything is sent, and a role that
// may not change settings sees the plans read-only.

const riverside = FACILITIES[0]!;
const basicId = '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const premiumId = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const businessPlans: ProtectionSettings = {
  plans: [
    { planId: basicId, name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' },
    { planId: premiumId, name: 'Premium', coverageAmount: '5000.00', monthlyPremium: '24.50' },
  ],
  defaultPlanId: basicId,
  enrollAfterDays: 30,
};
const path = '/api/settings/protection';
const card = async () => within(await screen.findByTestId('protection-settings-card'));
const value = (field: HTMLElement) => (field as HTMLInputElement).value;

describe('the Protection Plans card', () => {
  it("shows the business's plans, adds a tier with a new id, makes it the default and saves them all", async () => {
    const shown = answer('get', path, ProtectionSettingsAnswer, { business: businessPlans, facility: null, effective: businessPlans });
    const saved = answer('put', path, ProtectionSettingsAnswer, { business: businessPlans, facility: null, effective: businessPlans });
    const { user } = renderConsole(<ProtectionSettingsCard canChange />, { path: '/settings', api: [shown, saved] });
    const plans = await card();
    expect(value(await plans.findByLabelText('Plan 1 name'))).toBe('Basic');
    expect(value(plans.getByLabelText('Plan 2 coverage'))).toBe('5000.00');
    expect(value(plans.getByLabelText('Plan 2 monthly premium'))).toBe('24.50');
    expect(value(plans.getByLabelText('Enroll Renters Without a Plan or Proof of Insurance After'))).toBe('30');

    await user.click(plans.getByRole('button', { name: /Add Plan/ }));
    await fill(user, plans.getByLabelText('Plan 3 name'), 'Gold');
    await fill(user, plans.getByLabelText('Plan 3 coverage'), '10000.00');
    await fill(user, plans.getByLabelText('Plan 3 monthly premium'), '39.00');
    await user.click(plans.getByRole('combobox', { name: 'Default Plan' }));
    await user.click(await screen.findByTitle('Gold'));
    await fill(user, plans.getByLabelText('Enroll Renters Without a Plan or Proof of Insurance After'), '14');
    await user.click(plans.getByRole('button', { name: 'Save Protection Plans' }));
    await screen.findByText('Protection plans saved successfully');

    const body = UpdateProtectionSettingsRequest.parse(saved.sent[0]!.body);
    expect(body.facilityId).toBeNull();
    const gold = body.settings!.plans[2]!;
    expect(gold).toEqual({ planId: expect.any(String), name: 'Gold', coverageAmount: '10000.00', monthlyPremium: '39.00' });
    expect([basicId, premiumId]).not.toContain(gold.planId);
    expect(body.settings).toEqual({ plans: [...businessPlans.plans, gold], defaultPlanId: gold.planId, enrollAfterDays: 14 });
  });

  it('refuses, before sending, a premium of zero, two plans of one name and enrolling without a default plan', async () => {
    const shown = answer('get', path, ProtectionSettingsAnswer, { business: businessPlans, facility: null, effective: businessPlans });
    const saved = answer('put', path, ProtectionSettingsAnswer, { business: businessPlans, facility: null, effective: businessPlans });
    const { user } = renderConsole(<ProtectionSettingsCard canChange />, { path: '/settings', api: [shown, saved] });
    const plans = await card();
    await fill(user, await plans.findByLabelText('Plan 1 monthly premium'), '0.00');
    await user.click(plans.getByRole('button', { name: 'Save Protection Plans' }));
    await plans.findByText('Monthly premium must be more than 0.00');

    await fill(user, plans.getByLabelText('Plan 1 monthly premium'), '12.00');
    await fill(user, plans.getByLabelText('Plan 2 name'), 'basic');
    await user.click(plans.getByRole('button', { name: 'Save Protection Plans' }));
    await plans.findByText('Name must differ from the other plans');

    await fill(user, plans.getByLabelText('Plan 2 name'), 'Premium');
    // Removing the default plan leaves none, and renters are still to be enrolled after 30 days.
    await user.click(plans.getByRole('button', { name: 'Remove Basic' }));
    expect(plans.queryByLabelText('Plan 2 name')).toBeNull();
    await user.click(plans.getByRole('button', { name: 'Save Protection Plans' }));
    await plans.findByText('Default plan is required to enroll renters without insurance');
    expect(saved.sent).toHaveLength(0);

    await fill(user, plans.getByLabelText('Enroll Renters Without a Plan or Proof of Insurance After'), '');
    await user.click(plans.getByRole('button', { name: 'Save Protection Plans' }));
    await screen.findByText('Protection plans saved successfully');
    expect(UpdateProtectionSettingsRequest.parse(saved.sent[0]!.body).settings).toEqual({
      plans: [businessPlans.plans[1]],
      defaultPlanId: null,
      enrollAfterDays: null,
    });
  });

  it("has a facility that follows the business's plans say so, gives it its own, and goes back with null", async () => {
    const following = answer('get', path, ProtectionSettingsAnswer, { business: businessPlans, facility: null, effective: businessPlans });
    const saved = answer('put', path, ProtectionSettingsAnswer, { business: businessPlans, facility: null, effective: businessPlans });
    const { user } = renderConsole(<ProtectionSettingsCard canChange />, { path: `/settings?facility=${riverside.id}`, api: [following, saved] });
    const plans = await card();
    await plans.findByText("This facility uses the business's protection plans.");
    expect(following.sent.map((r) => r.search.get('facilityId'))).toContain(riverside.id);
    expect((await plans.findByLabelText('Plan 1 name')).hasAttribute('disabled')).toBe(true);
    expect(plans.queryByRole('button', { name: /Add Plan/ })).toBeNull();

    await user.click(plans.getByRole('switch', { name: "Use the business's plans" }));
    expect(plans.queryByText("This facility uses the business's protection plans.")).toBeNull();
    await fill(user, plans.getByLabelText('Plan 1 monthly premium'), '15.00');
    await user.click(plans.getByRole('button', { name: 'Save Protection Plans' }));
    await screen.findByText('Protection plans saved successfully');
    const own = UpdateProtectionSettingsRequest.parse(saved.sent[0]!.body);
    expect(own.facilityId).toBe(riverside.id);
    expect(own.settings?.plans[0]).toEqual({ ...businessPlans.plans[0], monthlyPremium: '15.00' });

    await user.click(plans.getByRole('switch', { name: "Use the business's plans" }));
    await user.click(plans.getByRole('button', { name: 'Save Protection Plans' }));
    await waitFor(() => expect(saved.sent).toHaveLength(2));
    expect(saved.sent[1]!.body).toEqual({ facilityId: riverside.id, settings: null });
  });

  it("shows the server's refusal", async () => {
    const shown = answer('get', path, ProtectionSettingsAnswer, { business: businessPlans, facility: null, effective: businessPlans });
    const refused = refuse('put', path, 404, { message: 'Facility not found' });
    const { user } = renderConsole(<ProtectionSettingsCard canChange />, { path: '/settings', api: [shown, refused] });
    const plans = await card();
    await user.click(await plans.findByRole('button', { name: 'Save Protection Plans' }));
    await screen.findByText('Failed to save protection plans');
    screen.getByText('Facility not found');
  });

  it.each(['clerk', 'auditor'] as const)('is read-only for a %s: no plan to add or remove, nothing to save', async (role) => {
    const shown = answer('get', path, ProtectionSettingsAnswer, { business: businessPlans, facility: null, effective: businessPlans });
    renderConsole(<ProtectionSettingsCard canChange={false} />, { role, path: '/settings', api: [shown] });
    const plans = await card();
    expect((await plans.findByLabelText('Plan 1 name')).hasAttribute('disabled')).toBe(true);
    expect(plans.getByLabelText('Plan 2 monthly premium').hasAttribute('disabled')).toBe(true);
    expect(plans.getByLabelText('Enroll Renters Without a Plan or Proof of Insurance After').hasAttribute('disabled')).toBe(true);
    plans.getByText('Only owners and managers can change these settings.');
    for (const name of ['Save Protection Plans', /Add Plan/, 'Remove Basic']) expect(plans.queryByRole('button', { name }), String(name)).toBeNull();
  });
});
