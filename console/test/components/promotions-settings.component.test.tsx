import { type Promotion, UpdatePromotionsRequest } from '@storage/contracts/promotions';
import { answer, refuse } from '@storage/testing/component-api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PromotionsSettingsCard } from '../../src/features/settings/components/promotions-settings-card.tsx';
import { FACILITIES, fill, renderConsole } from './render.tsx';

// Promotions: the business's offers listed in words, added and edited in a dialog, switched off or
// removed in the list, and saved together; a role that may not change settings only reads them.

const [riverside, harbor] = [FACILITIES[0]!, FACILITIES[1]!];
const firstMonthFree: Promotion = {
  promotionId: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f60',
  name: 'Summer move-in',
  terms: { kind: 'percent_off', percent: '100', months: 1 },
  channel: 'both',
  facilityIds: [],
  unitSizes: [],
  startsOn: null,
  endsOn: null,
  active: true,
};
const halfOff: Promotion = {
  promotionId: '3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a70',
  name: 'Small units half off',
  terms: { kind: 'percent_off', percent: '50', months: 3 },
  channel: 'desk',
  facilityIds: [riverside.id, harbor.id],
  unitSizes: ['5x5', '5x10'],
  startsOn: '2026-12-01',
  endsOn: '2027-01-31',
  active: false,
};
const path = '/api/settings/promotions';
const card = async () => within(await screen.findByTestId('promotions-settings-card'));
const rows = () => screen.getAllByTestId('promotion-row');
const dialog = async () => within(await screen.findByRole('dialog'));

describe('the Promotions card', () => {
  it('lists each promotion in words: its terms, channel, facilities by name, sizes, move-in days and whether it is active', async () => {
    renderConsole(<PromotionsSettingsCard canChange />, {
      path: '/settings',
      api: [answer('get', path, UpdatePromotionsRequest, { promotions: [firstMonthFree, halfOff] })],
    });
    const promotions = await card();
    await promotions.findByText('Small units half off');
    await promotions.findByText(`${riverside.name}, ${harbor.name}`);
    const [free, half] = rows().map((row) => within(row));
    free!.getByText('First month free');
    free!.getByText('Online and at the desk');
    free!.getByText('All facilities');
    free!.getByText('All sizes');
    free!.getByText('Any move-in day');
    expect(free!.getByRole('switch', { name: 'Summer move-in active' }).getAttribute('aria-checked')).toBe('true');
    half!.getByText('50% off the first 3 months');
    half!.getByText('Desk only');
    half!.getByText('5x5, 5x10');
    half!.getByText('Dec 1, 2026 – Jan 31, 2027');
    expect(half!.getByRole('switch', { name: 'Small units half off active' }).getAttribute('aria-checked')).toBe('false');
  });

  it('adds a promotion in the dialog, at some facilities and sizes for some days, and saves the whole list', async () => {
    const saved = answer('put', path, UpdatePromotionsRequest, { promotions: [firstMonthFree] });
    const { user } = renderConsole(<PromotionsSettingsCard canChange />, {
      path: '/settings',
      api: [answer('get', path, UpdatePromotionsRequest, { promotions: [firstMonthFree] }), saved],
    });
    const promotions = await card();
    await user.click(await promotions.findByRole('button', { name: /Add Promotion/ }));
    const form = await dialog();
    await fill(user, form.getByLabelText('Name'), 'Winter deal');
    await user.click(form.getByRole('combobox', { name: 'Kind' }));
    await user.click(await screen.findByTitle('Amount off'));
    await fill(user, await form.findByLabelText('Amount Off Each Month'), '20.00');
    await fill(user, form.getByLabelText('Months'), '2');
    await user.click(form.getByRole('combobox', { name: 'Channel' }));
    await user.click(await screen.findByTitle('Online only'));
    await user.click(form.getByRole('combobox', { name: 'Facilities' }));
    await user.click(await screen.findByTitle(harbor.name));
    await user.click(form.getByRole('combobox', { name: 'Unit Sizes' }));
    await user.click(await screen.findByTitle('10x10 (Standard)'));
    // jsdom types no keys into a date input: the change a picked day makes.
    fireEvent.change(form.getByLabelText('Starts On'), { target: { value: '2027-01-01' } });
    fireEvent.change(form.getByLabelText('Ends On'), { target: { value: '2027-02-28' } });
    await user.click(form.getByRole('button', { name: 'Add Promotion' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const added = within(rows()[1]!);
    added.getByText('$20.00 off the first 2 months');
    added.getByText('Online only');
    added.getByText(harbor.name);
    added.getByText('10x10');
    promotions.getByText('Changes are not saved yet: Save Promotions to keep them.');
    expect(saved.sent).toHaveLength(0);

    await user.click(promotions.getByRole('button', { name: 'Save Promotions' }));
    await screen.findByText('Promotions saved successfully');
    const body = UpdatePromotionsRequest.parse(saved.sent[0]!.body);
    expect(body.promotions[0]).toEqual(firstMonthFree);
    const winter = body.promotions[1]!;
    expect(winter).toEqual({
      promotionId: expect.any(String),
      name: 'Winter deal',
      terms: { kind: 'amount_off', amount: '20.00', months: 2 },
      channel: 'online',
      facilityIds: [harbor.id],
      unitSizes: ['10x10'],
      startsOn: '2027-01-01',
      endsOn: '2027-02-28',
      active: true,
    });
    expect(winter.promotionId).not.toBe(firstMonthFree.promotionId);
  });

  it('refuses in the dialog a percentage over 100 and an end before the start, keeping the list as it was', async () => {
    const { user } = renderConsole(<PromotionsSettingsCard canChange />, {
      path: '/settings',
      api: [answer('get', path, UpdatePromotionsRequest, { promotions: [halfOff] })],
    });
    const promotions = await card();
    await user.click(await promotions.findByRole('button', { name: 'Edit Small units half off' }));
    const form = await dialog();
    expect((form.getByLabelText('Name') as HTMLInputElement).value).toBe('Small units half off');
    await fill(user, form.getByLabelText('Percent Off'), '150');
    await user.click(form.getByRole('button', { name: 'Done' }));
    await form.findByText('Percent must be more than 0 and at most 100');

    await fill(user, form.getByLabelText('Percent Off'), '40');
    fireEvent.change(form.getByLabelText('Ends On'), { target: { value: '2026-11-30' } });
    await user.click(form.getByRole('button', { name: 'Done' }));
    await form.findByText('End must be on or after the start');

    await user.click(form.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    within(rows()[0]!).getByText('50% off the first 3 months');
    expect(promotions.queryByText('Changes are not saved yet: Save Promotions to keep them.')).toBeNull();
  });

  it("edits one, switches another off, removes a third, and shows the server's refusal of the list", async () => {
    const third: Promotion = { ...firstMonthFree, promotionId: '4f5a6b7c-8d9e-4f0a-9b1c-2d3e4f5a6b80', name: 'Old offer' };
    const refused = refuse('put', path, 400, { message: 'promotions.1.facilityIds: no such facility', field: 'promotions.1.facilityIds' });
    const { user } = renderConsole(<PromotionsSettingsCard canChange />, {
      path: '/settings',
      api: [answer('get', path, UpdatePromotionsRequest, { promotions: [firstMonthFree, halfOff, third] }), refused],
    });
    const promotions = await card();
    await user.click(await promotions.findByRole('button', { name: 'Edit Summer move-in' }));
    const form = await dialog();
    await fill(user, form.getByLabelText('Months'), '2');
    await user.click(form.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(promotions.getByRole('switch', { name: 'Summer move-in active' }));
    await user.click(promotions.getByRole('button', { name: 'Remove Old offer' }));
    expect(rows()).toHaveLength(2);

    await user.click(promotions.getByRole('button', { name: 'Save Promotions' }));
    await screen.findByText('Failed to save promotions');
    screen.getByText('promotions.1.facilityIds: no such facility');
    expect(UpdatePromotionsRequest.parse(refused.sent[0]!.body).promotions).toEqual([
      { ...firstMonthFree, terms: { kind: 'percent_off', percent: '100', months: 2 }, active: false },
      halfOff,
    ]);
  });

  it('says a facility in scope uses the business promotions', async () => {
    renderConsole(<PromotionsSettingsCard canChange />, {
      path: `/settings?facility=${riverside.id}`,
      api: [answer('get', path, UpdatePromotionsRequest, { promotions: [] })],
    });
    const promotions = await card();
    await promotions.findByText("This facility uses the business's promotions.");
    promotions.getByText('No promotions');
  });

  it.each(['clerk', 'auditor'] as const)('is read-only for a %s: nothing to add, edit, remove, switch or save', async (role) => {
    renderConsole(<PromotionsSettingsCard canChange={false} />, {
      role,
      path: '/settings',
      api: [answer('get', path, UpdatePromotionsRequest, { promotions: [firstMonthFree] })],
    });
    const promotions = await card();
    expect((await promotions.findByRole('switch', { name: 'Summer move-in active' })).hasAttribute('disabled')).toBe(true);
    promotions.getByText('Only owners and managers can change these settings.');
    for (const name of ['Save Promotions', /Add Promotion/, 'Edit Summer move-in', 'Remove Summer move-in']) {
      expect(promotions.queryByRole('button', { name }), String(name)).toBeNull();
    }
  });
});
