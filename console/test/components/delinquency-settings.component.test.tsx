import { DelinquencySettingsAnswer, type DelinquencyStep, defaultDelinquencySteps, UpdateDelinquencySettingsRequest } from '@storage/contracts/delinquency';
import { answer, heldAnswer, refuse } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DelinquencySettingsCard } from '../../src/features/settings/components/delinquency-settings-card.tsx';
import { FACILITIES, fill, renderConsole } from './render.tsx';

// Delinquency: the business's schedule, or a facility's own, or the facility following the
// business's; loading and a refused load as every settings card a facility may have its own of
// shows them (scoped-settings.tsx). Saving the business's schedule in a real browser is
// delinquency.e2e's.

const riverside = FACILITIES[0]!;
const path = '/api/settings/delinquency';
const business: DelinquencyStep[] = [...defaultDelinquencySteps];
const card = async () => within(await screen.findByTestId('delinquency-settings-card'));
const inputValue = (field: HTMLElement) => (field as HTMLInputElement).value;

describe('the Delinquency card', () => {
  it('shows a skeleton until the schedule is in, then the steps', async () => {
    const held = heldAnswer('get', path, DelinquencySettingsAnswer, { business: null, facility: null, effective: business });
    const { container } = renderConsole(<DelinquencySettingsCard canChange />, { path: '/settings', api: [held] });
    await held.arrived;
    const schedule = await card();
    expect(container.querySelector('.ant-skeleton')).not.toBeNull();
    expect(schedule.queryByLabelText('Lockout day')).toBeNull();
    held.release();
    await schedule.findByLabelText('Lockout day');
    expect(container.querySelector('.ant-skeleton')).toBeNull();
    // The business follows nobody: no switch to follow it.
    expect(schedule.queryByRole('switch')).toBeNull();
  });

  it("says it could not load the schedule, with the server's reason, and shows no form", async () => {
    renderConsole(<DelinquencySettingsCard canChange />, {
      path: `/settings?facility=${riverside.id}`,
      api: [refuse('get', path, 403, { message: 'Only owners can see the delinquency schedule' })],
    });
    const schedule = await card();
    await schedule.findByText('Could not load the delinquency schedule');
    schedule.getByText('Only owners can see the delinquency schedule');
    expect(schedule.queryByLabelText('Lockout day')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save Delinquency Schedule' })).toBeNull();
  });

  it("has a facility that follows the business's schedule say so, gives it its own, and goes back with null", async () => {
    const following = answer('get', path, DelinquencySettingsAnswer, { business, facility: null, effective: business });
    const saved = answer('put', path, DelinquencySettingsAnswer, { business, facility: null, effective: business });
    const { user } = renderConsole(<DelinquencySettingsCard canChange />, { path: `/settings?facility=${riverside.id}`, api: [following, saved] });
    const schedule = await card();
    await schedule.findByText("This facility uses the business's delinquency schedule.");
    expect(following.sent.map((r) => r.search.get('facilityId'))).toContain(riverside.id);
    const follow = schedule.getByRole('switch', { name: "Use the business's schedule" });
    expect(follow.getAttribute('aria-checked')).toBe('true');
    expect(schedule.getByLabelText('Lockout day').hasAttribute('disabled')).toBe(true);

    await user.click(follow);
    expect(schedule.queryByText("This facility uses the business's delinquency schedule.")).toBeNull();
    const lockout = schedule.getByLabelText('Lockout day');
    expect(lockout.hasAttribute('disabled')).toBe(false);
    await fill(user, lockout, '12');
    await user.click(schedule.getByRole('button', { name: 'Save Delinquency Schedule' }));
    await screen.findByText('Delinquency schedule saved successfully');
    const own = UpdateDelinquencySettingsRequest.parse(saved.sent[0]!.body);
    expect(own.facilityId).toBe(riverside.id);
    expect(own.steps?.find((step) => step.kind === 'lockout')?.day).toBe(12);

    // Following again shows the business's steps, and saves null: no schedule of its own.
    await user.click(schedule.getByRole('switch', { name: "Use the business's schedule" }));
    expect(inputValue(schedule.getByLabelText('Lockout day'))).toBe(String(business.find((step) => step.kind === 'lockout')!.day));
    await user.click(schedule.getByRole('button', { name: 'Save Delinquency Schedule' }));
    await waitFor(() => expect(saved.sent).toHaveLength(2));
    expect(saved.sent[1]!.body).toEqual({ facilityId: riverside.id, steps: null });
  });
});
