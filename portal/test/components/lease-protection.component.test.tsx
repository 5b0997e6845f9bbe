import { LeaseProtectionView } from '@storage/contracts/protection';
import { answer, refuse } from '@storage/testing/component-api';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LeaseProtection } from '../../src/features/portal/lease-protection.tsx';
import { renderPortal } from './render.tsx';

// A unit's protection plan in the portal: what the renter has, and choosing a plan of the
// facility's. The rules (billed from the next period, own leases only) are the API's to test.

const leaseId = '9e1f3b7c-2d4a-4f6b-8a0c-1e2d3c4b5a03';
const path = `/api/customer/leases/${leaseId}/protection`;
const basic = { planId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' };
const premium = { planId: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e', name: 'Premium', coverageAmount: '10000.00', monthlyPremium: '29.00' };
const none: LeaseProtectionView = { leaseId, current: null, history: [], insuranceProof: null, plans: [basic, premium] };

describe('the protection plan in the portal', () => {
  it('says there is none, and chooses a plan of the facility', async () => {
    const chosen: LeaseProtectionView = {
      ...none,
      current: premium,
      history: [{ protection: premium, effectiveDate: '2026-04-01', reason: 'chosen_by_renter', changedAt: '2026-03-20T10:00:00.000Z' }],
    };
    const saved = answer('post', path, LeaseProtectionView, chosen, { status: 200 });
    const { user } = renderPortal(<LeaseProtection leaseId={leaseId} />, { api: [answer('get', path, LeaseProtectionView, none), saved] });
    expect(await screen.findByText('No protection plan')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Choose a plan' }));
    await user.click(screen.getByRole('button', { name: 'Save Plan' }));
    expect(screen.getByRole('alert').textContent).toBe('Please choose a plan.');
    await user.selectOptions(screen.getByLabelText('Protection Plan'), 'Premium: $10,000.00 coverage, $29.00 a month');
    await user.click(screen.getByRole('button', { name: 'Save Plan' }));
    expect(await screen.findByText('Protection plan Premium: $10,000.00 coverage, $29.00 a month')).toBeTruthy();
    expect(saved.sent[0]!.body).toEqual({ planId: premium.planId });
    expect(screen.getByRole('button', { name: 'Change plan' })).toBeTruthy();
  });

  it('shows the renter’s own insurance, and offers nothing when the facility has no plans', async () => {
    const insured: LeaseProtectionView = { ...none, plans: [], insuranceProof: { carrier: 'Acme Mutual', policyNumber: 'P-77', expiresOn: '2027-01-01' } };
    renderPortal(<LeaseProtection leaseId={leaseId} />, { api: [answer('get', path, LeaseProtectionView, insured)] });
    expect(await screen.findByText('Insured with Acme Mutual (policy P-77)')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows nothing when the plan cannot be read', async () => {
    const refused = refuse('get', path, 404, { message: 'Lease not found' });
    const { container } = renderPortal(<LeaseProtection leaseId={leaseId} />, { api: [refused] });
    await expect.poll(() => refused.sent.length).toBe(1);
    // The refusal has been answered: still nothing on screen.
    await Promise.resolve();
    expect(container.textContent).toBe('');
  });
});
