import type { StaffRole } from '@storage/contracts/enums';
import { LeaseProtectionView, type LeaseProtectionView as LeaseProtectionViewType, type ProtectionPlan } from '@storage/contracts/protection';
import { LeaseRentChanges } from '@storage/contracts/rent-changes';
import { answer, refuse } from '@storage/testing/component-api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LeaseCard } from '../../src/features/leases/components/lease-card.tsx';
import { LeaseProtectionBlock } from '../../src/features/leases/components/lease-protection.tsx';
import { graceLeaseOfA101 } from './lease-fixtures.ts';
import { fill, renderConsole } from './render.tsx';

// The lease's Protection block: the plan now, the renter's own insurance (expired said so) and the
// history in words; Change Plan posts the plan chosen (or none), Record Proof of Insurance its
// fields, a refusal shows under the field it names; an auditor sees no button.

const leaseId = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
const path = `/api/leases/${leaseId}/protection`;
const basic: ProtectionPlan = { planId: '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d', name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' };
const premium: ProtectionPlan = { planId: '1a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d', name: 'Premium', coverageAmount: '5000.00', monthlyPremium: '20.00' };

const view: LeaseProtectionViewType = {
  leaseId,
  current: basic,
  history: [
    { protection: basic, effectiveDate: '2026-02-10', reason: 'chosen_at_move_in', changedAt: '2026-02-10T10:00:00.000Z' },
    { protection: null, effectiveDate: '2026-04-01', reason: 'cancelled_by_staff', changedAt: '2026-03-20T10:00:00.000Z' },
    { protection: basic, effectiveDate: '2026-06-01', reason: 'enrolled_by_default', changedAt: '2026-05-20T10:00:00.000Z' },
  ],
  insuranceProof: { carrier: 'Acme Mutual', policyNumber: 'AM-1001', expiresOn: '2020-01-31' },
  plans: [basic, premium],
};

const lease = graceLeaseOfA101({ id: leaseId, signature: null });

function renderBlock(role: StaffRole, api = [answer('get', path, LeaseProtectionView, view)]) {
  return renderConsole(<LeaseProtectionBlock leaseId={leaseId} canChange={role !== 'auditor'} />, { role, api });
}

const block = () => screen.getByRole('region', { name: 'Protection' });

describe('the lease’s Protection block', () => {
  it('shows the plan, the proof of insurance (expired) and the history in words', async () => {
    renderBlock('clerk');
    await screen.findByText('Basic — $2,000 coverage, $12.00/month');
    const proof = within(block()).getByTestId('lease-insurance-proof');
    expect(proof.textContent).toContain('Acme Mutual, policy AM-1001, expired Jan 31, 2020');
    expect(within(proof).getByText('Expired')).toBeTruthy();
    const history = within(block()).getByRole('list', { name: 'Protection history' });
    // Newest first.
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Jun 1, 2026: Basic (Enrolled in the default plan: no plan and no proof of insurance)',
      'Apr 1, 2026: No protection plan (Cancelled by staff)',
      'Feb 10, 2026: Basic (Chosen at move-in)',
    ]);
  });

  it('changes the plan: the dialog says when it is billed from and posts the plan chosen', async () => {
    const changed: LeaseProtectionViewType = {
      ...view,
      current: premium,
      history: [...view.history, { protection: premium, effectiveDate: '2026-08-01', reason: 'changed_by_staff', changedAt: '2026-07-05T10:00:00.000Z' }],
    };
    const posted = answer('post', path, LeaseProtectionView, changed, { status: 200 });
    const { user } = renderBlock('clerk', [answer('get', path, LeaseProtectionView, view), posted]);
    await user.click(await screen.findByRole('button', { name: 'Change Plan' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/periods already invoiced keep their plan/)).toBeTruthy();
    await user.click(within(dialog).getByRole('combobox', { name: 'Plan' }));
    expect(await screen.findByTitle('No protection plan')).toBeTruthy();
    await user.click(screen.getByTitle('Premium — $5,000 coverage, $20.00/month'));
    await user.click(within(dialog).getByRole('button', { name: 'Change Plan' }));
    await screen.findByText('Protection plan changed; billed from Aug 1, 2026');
    expect(posted.sent.map((sent) => sent.body)).toEqual([{ planId: premium.planId }]);
    await waitFor(() => expect(within(block()).getByTestId('lease-protection-current').textContent).toBe('Premium — $5,000 coverage, $20.00/month'));
  });

  it('cancels the plan with No protection plan: it posts a null plan', async () => {
    const posted = answer('post', path, LeaseProtectionView, { ...view, current: null }, { status: 200 });
    const { user } = renderBlock('manager', [answer('get', path, LeaseProtectionView, view), posted]);
    await user.click(await screen.findByRole('button', { name: 'Change Plan' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('combobox', { name: 'Plan' }));
    await user.click(await screen.findByTitle('No protection plan'));
    await user.click(within(dialog).getByRole('button', { name: 'Change Plan' }));
    await waitFor(() => expect(posted.sent.map((sent) => sent.body)).toEqual([{ planId: null }]));
    await waitFor(() => expect(within(block()).getByTestId('lease-protection-current').textContent).toBe('No protection plan'));
  });

  it('records proof of insurance with its fields, and shows a refusal under the field it names', async () => {
    const refused = refuse('post', `/api/leases/${leaseId}/insurance-proof`, 400, { message: 'expiresOn: must not be in the past', field: 'expiresOn' });
    const { user } = renderBlock('clerk', [answer('get', path, LeaseProtectionView, { ...view, insuranceProof: null }), refused]);
    expect((await screen.findByTestId('lease-insurance-proof')).textContent).toBe('No proof of insurance on file');
    await user.click(screen.getByRole('button', { name: 'Record Proof of Insurance' }));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByLabelText('Carrier'), 'Acme Mutual');
    await fill(user, within(dialog).getByLabelText('Policy Number'), 'AM-2002');
    fireEvent.change(within(dialog).getByLabelText('Expires On'), { target: { value: '2026-01-01' } });
    await user.click(within(dialog).getByRole('button', { name: 'Record Proof' }));
    await within(dialog).findByText('Expires on must not be in the past');
    expect(refused.sent.map((sent) => sent.body)).toEqual([{ carrier: 'Acme Mutual', policyNumber: 'AM-2002', expiresOn: '2026-01-01' }]);
  });

  it('is on the lease card of the renter’s page, with its buttons for a clerk and none for an auditor', async () => {
    for (const role of ['clerk', 'auditor'] as const) {
      const { unmount } = renderConsole(<LeaseCard lease={lease} onMovedOut={() => {}} showTenant={false} />, {
        role,
        api: [
          answer('get', path, LeaseProtectionView, view),
          answer('get', `/api/leases/${leaseId}/rent-changes`, LeaseRentChanges, {
            terms: { today: '2026-07-01', noticeDays: 30, earliestEffectiveDate: '2026-08-01' },
            changes: [],
          }),
        ],
      });
      await within(await screen.findByRole('region', { name: 'Protection' })).findByText('Basic — $2,000 coverage, $12.00/month');
      const buttons = within(block())
        .queryAllByRole('button')
        .map((button) => button.textContent);
      expect(buttons, role).toEqual(role === 'clerk' ? ['Change Plan', 'Record Proof of Insurance'] : []);
      unmount();
    }
  });
});
