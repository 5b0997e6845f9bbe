import { type LeaseTerms, LeaseTermsAnswer, UpdateLeaseTermsRequest } from '@storage/contracts/lease-terms';
import { answer, refuse } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LeaseTermsCard } from '../../src/features/settings/components/lease-terms-card.tsx';
import { FACILITIES, fill, renderConsole } from './render.tsx';

// Lease Agreement: the owner's additional terms, the business's or a facility's own, or the
// facility following the business's; numbered as the agreement numbers them, after the six
// generated ones; the form refuses a blank term before anything is sent, and a role that may not
// change settings sees the terms read-only.

const riverside = FACILITIES[0]!;
const lockTerm = 'The tenant must keep the unit locked with a lock of their own when not present.';
const businessTerms: LeaseTerms = { additionalTerms: [lockTerm] };
const path = '/api/settings/lease-terms';
const card = async () => within(await screen.findByTestId('lease-terms-card'));
const value = (field: HTMLElement) => (field as HTMLTextAreaElement).value;

describe('the Lease Agreement card', () => {
  it("shows the business's terms numbered after the generated ones, adds, edits and removes terms and saves them", async () => {
    const shown = answer('get', path, LeaseTermsAnswer, { business: businessTerms, facility: null, effective: businessTerms });
    const saved = answer('put', path, LeaseTermsAnswer, { business: businessTerms, facility: null, effective: businessTerms });
    const { user } = renderConsole(<LeaseTermsCard canChange />, { path: '/settings', api: [shown, saved] });
    const terms = await card();
    expect(value(await terms.findByLabelText('Term 7'))).toBe(lockTerm);
    terms.getByText("The agreement's terms: the 6 generated from your billing settings, then these.");
    terms.getByText(/Changing the terms changes the agreement renters sign from now on; leases signed before keep the agreement they signed\./);

    await user.click(terms.getByRole('button', { name: /Add Term/ }));
    await fill(user, terms.getByLabelText('Term 8'), '  No vehicles may be stored.  ');
    await user.click(terms.getByRole('button', { name: /Add Term/ }));
    await fill(user, terms.getByLabelText('Term 9'), 'Keys are not kept by the office.');
    await fill(user, terms.getByLabelText('Term 7'), 'The unit must be kept locked.');
    await user.click(terms.getByRole('button', { name: 'Remove term 8' }));
    expect(value(terms.getByLabelText('Term 8'))).toBe('Keys are not kept by the office.');
    expect(terms.queryByLabelText('Term 9')).toBeNull();
    await user.click(terms.getByRole('button', { name: 'Save Lease Agreement' }));
    await screen.findByText('Lease agreement terms saved successfully');
    expect(UpdateLeaseTermsRequest.parse(saved.sent[0]!.body)).toEqual({
      facilityId: null,
      terms: { additionalTerms: ['The unit must be kept locked.', 'Keys are not kept by the office.'] },
    });
  });

  it('says when there are no additional terms, and refuses a blank term before sending', async () => {
    const none = { additionalTerms: [] };
    const shown = answer('get', path, LeaseTermsAnswer, { business: null, facility: null, effective: none });
    const saved = answer('put', path, LeaseTermsAnswer, { business: none, facility: null, effective: none });
    const { user } = renderConsole(<LeaseTermsCard canChange />, { path: '/settings', api: [shown, saved] });
    const terms = await card();
    await terms.findByText("The agreement's terms: the 6 generated from your billing settings, and no additional terms.");
    await user.click(terms.getByRole('button', { name: /Add Term/ }));
    await fill(user, terms.getByLabelText('Term 7'), '   ');
    await user.click(terms.getByRole('button', { name: 'Save Lease Agreement' }));
    await terms.findByText('Term 7 is required');
    expect(saved.sent).toHaveLength(0);
  });

  it("has a facility that follows the business's terms say so, gives it its own, and goes back with null", async () => {
    const following = answer('get', path, LeaseTermsAnswer, { business: businessTerms, facility: null, effective: businessTerms });
    const saved = answer('put', path, LeaseTermsAnswer, { business: businessTerms, facility: null, effective: businessTerms });
    const { user } = renderConsole(<LeaseTermsCard canChange />, { path: `/settings?facility=${riverside.id}`, api: [following, saved] });
    const terms = await card();
    await terms.findByText("This facility uses the business's lease agreement terms.");
    expect(following.sent.map((r) => r.search.get('facilityId'))).toContain(riverside.id);
    expect((await terms.findByLabelText('Term 7')).hasAttribute('disabled')).toBe(true);
    expect(terms.queryByRole('button', { name: /Add Term/ })).toBeNull();

    await user.click(terms.getByRole('switch', { name: "Use the business's terms" }));
    expect(terms.queryByText("This facility uses the business's lease agreement terms.")).toBeNull();
    await fill(user, terms.getByLabelText('Term 7'), 'No vehicles may be stored at this facility.');
    await user.click(terms.getByRole('button', { name: 'Save Lease Agreement' }));
    await screen.findByText('Lease agreement terms saved successfully');
    expect(UpdateLeaseTermsRequest.parse(saved.sent[0]!.body)).toEqual({
      facilityId: riverside.id,
      terms: { additionalTerms: ['No vehicles may be stored at this facility.'] },
    });

    await user.click(terms.getByRole('switch', { name: "Use the business's terms" }));
    await user.click(terms.getByRole('button', { name: 'Save Lease Agreement' }));
    await waitFor(() => expect(saved.sent).toHaveLength(2));
    expect(saved.sent[1]!.body).toEqual({ facilityId: riverside.id, terms: null });
  });

  it("shows the server's refusal", async () => {
    const shown = answer('get', path, LeaseTermsAnswer, { business: businessTerms, facility: null, effective: businessTerms });
    const refused = refuse('put', path, 404, { message: 'Facility not found' });
    const { user } = renderConsole(<LeaseTermsCard canChange />, { path: '/settings', api: [shown, refused] });
    const terms = await card();
    await user.click(await terms.findByRole('button', { name: 'Save Lease Agreement' }));
    await screen.findByText('Failed to save the lease agreement terms');
    screen.getByText('Facility not found');
  });

  it.each(['clerk', 'auditor'] as const)('is read-only for a %s: no term to add or remove, nothing to save', async (role) => {
    const shown = answer('get', path, LeaseTermsAnswer, { business: businessTerms, facility: null, effective: businessTerms });
    renderConsole(<LeaseTermsCard canChange={false} />, { role, path: '/settings', api: [shown] });
    const terms = await card();
    expect((await terms.findByLabelText('Term 7')).hasAttribute('disabled')).toBe(true);
    terms.getByText('Only owners and managers can change these settings.');
    for (const name of ['Save Lease Agreement', /Add Term/, 'Remove term 7']) expect(terms.queryByRole('button', { name }), String(name)).toBeNull();
  });
});
