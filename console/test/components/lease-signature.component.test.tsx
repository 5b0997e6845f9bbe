import { LEASE_CHANGED_SINCE_OPENED, LeaseSignature, LeaseToSign } from '@storage/contracts/lease-signatures';
import { Lease, LeaseCounts } from '@storage/contracts/leases';
import { answer, answerPage, refuse } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LeaseCard } from '../../src/features/leases/components/lease-card.tsx';
import { LeasesList } from '../../src/features/leases/components/leases-list.tsx';
import { fill, renderConsole } from './render.tsx';

// Signing at the desk: the lease card says "Awaiting signature" until the renter signs; Sign at the
// Desk shows the agreement, takes the typed name and the drawn mark, and sends the hash of the
// agreement it showed; a lease changed meanwhile is refused and the agreement shown afresh.

const leaseId = '9e1f3b7c-2d4a-4f6b-8a0c-1e2d3c4b5a03';
const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const lease: Lease = {
  id: leaseId,
  customer: { id: customerId, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: null },
  unit: { id: '5d2c9a51-7a0e-4c43-8d3b-7a5a1f0e4b02', unitNumber: 'A-101', size: '10x10', building: 'A', facilityId: null },
  isActive: true,
  monthlyRate: '120.00',
  depositAmount: null,
  startDate: '2026-02-01',
  endDate: null,
  moveOutDate: null,
  createdAt: '2026-02-01T10:00:00.000Z',
  invoiceSummary: { paid: 0, overdue: 0, total: 1 },
  signature: null,
};
const shownHash = 'a'.repeat(64);
const toSign = (text: string, documentSha256 = shownHash) =>
  answer('get', `/api/leases/${leaseId}/signature`, LeaseToSign, {
    leaseId,
    title: 'Storage Unit Lease Agreement',
    text,
    documentSha256,
    signature: null,
    signedThisDocument: false,
  });
const signature: LeaseSignature = {
  leaseId,
  customerId,
  signerName: 'Ada Lovelace',
  signedAt: '2026-02-01T15:00:00.000Z',
  channel: 'desk',
  mark: 'M 1 1 L 2 2',
  ipAddress: '203.0.113.9',
  userAgent: 'Tablet',
  documentSha256: shownHash,
  eventId: '7c1e0d2a-4b3f-4e5d-9a8b-0c1d2e3f4a05',
};

async function draw(user: UserEvent, pad: HTMLElement) {
  await user.pointer([
    { keys: '[MouseLeft>]', target: pad, coords: { clientX: 10, clientY: 20 } },
    { target: pad, coords: { clientX: 40, clientY: 35 } },
    { target: pad, coords: { clientX: 80, clientY: 25 } },
    { keys: '[/MouseLeft]', target: pad },
  ]);
}

async function openDialog(user: UserEvent) {
  await user.click(await screen.findByRole('button', { name: /Sign at the Desk/ }));
  return within(await screen.findByRole('dialog'));
}

describe('Sign at the Desk', () => {
  it('shows a lease not signed yet as awaiting its signature, and signs it with the name, the mark and the hash shown', async () => {
    const signed = answer('post', `/api/leases/${leaseId}/signature`, LeaseSignature, signature);
    const { user } = renderConsole(<LeaseCard lease={lease} onMovedOut={() => {}} />, {
      role: 'clerk',
      api: [toSign('Storage Unit Lease Agreement\n\n== Terms and Conditions ==\n1. Rent is due on the 1st of each month.'), signed],
    });
    expect(screen.getByText('Awaiting signature')).toBeTruthy();
    const dialog = await openDialog(user);
    expect((await dialog.findByTestId('agreement-text')).textContent).toContain('Rent is due on the 1st of each month.');

    // Neither the name nor the mark yet: nothing is sent.
    await user.click(dialog.getByRole('button', { name: 'Sign' }));
    await dialog.findByText('Full name is required');
    await dialog.findByText('Please draw the signature');
    expect(signed.sent).toHaveLength(0);

    await fill(user, dialog.getByLabelText('Full Name'), 'Ada Lovelace');
    await draw(user, dialog.getByTestId('signature-pad'));
    await dialog.findByText('Signature drawn.');
    await user.click(dialog.getByRole('button', { name: 'Sign' }));
    await screen.findByText('Lease signed');
    expect(signed.sent).toHaveLength(1);
    const body = signed.sent[0]!.body as { signerName: string; mark: string; documentSha256: string };
    expect(body.signerName).toBe('Ada Lovelace');
    expect(body.documentSha256).toBe(shownHash);
    expect(body.mark).toMatch(/^M [\d.]+ [\d.]+ L [\d.]+ [\d.]+ L [\d.]+ [\d.]+/);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Clear takes the mark away, so a cleared pad is not signed', async () => {
    const signed = answer('post', `/api/leases/${leaseId}/signature`, LeaseSignature, signature);
    const { user } = renderConsole(<LeaseCard lease={lease} onMovedOut={() => {}} />, { role: 'manager', api: [toSign('The agreement'), signed] });
    const dialog = await openDialog(user);
    await fill(user, await dialog.findByLabelText('Full Name'), 'Ada Lovelace');
    await draw(user, dialog.getByTestId('signature-pad'));
    await user.click(await dialog.findByRole('button', { name: 'Clear' }));
    await dialog.findByText('Draw your signature above.');
    await user.click(dialog.getByRole('button', { name: 'Sign' }));
    await dialog.findByText('Please draw the signature');
    expect(signed.sent).toHaveLength(0);
  });

  it('says when the lease changed since it was opened, and shows the agreement again', async () => {
    const refused = refuse('post', `/api/leases/${leaseId}/signature`, 409, { message: LEASE_CHANGED_SINCE_OPENED, field: 'documentSha256' });
    const first = toSign('Monthly Rent: $120.00');
    const { user } = renderConsole(<LeaseCard lease={lease} onMovedOut={() => {}} />, { role: 'owner', api: [first, refused] });
    const dialog = await openDialog(user);
    await fill(user, await dialog.findByLabelText('Full Name'), 'Ada Lovelace');
    await draw(user, dialog.getByTestId('signature-pad'));
    await user.click(dialog.getByRole('button', { name: 'Sign' }));
    await screen.findByText('Failed to sign the lease');
    screen.getByText(LEASE_CHANGED_SINCE_OPENED);
    // The agreement is read afresh from the server.
    await waitFor(() => expect(first.sent).toHaveLength(2));
  });

  it('shows a signed lease’s signature and its PDF, and gives an auditor no Sign button', async () => {
    renderConsole(
      <>
        <LeaseCard lease={{ ...lease, signature: { signerName: 'Ada Lovelace', signedAt: signature.signedAt, channel: 'online' } }} onMovedOut={() => {}} />
        <LeaseCard lease={{ ...lease, id: customerId }} onMovedOut={() => {}} />
      </>,
      { role: 'auditor' },
    );
    const signedLine = await screen.findByTestId('lease-signed');
    expect(signedLine.textContent).toMatch(/^Signed by Ada Lovelace on Feb 1, 2026 at .+, online$/);
    expect(screen.getByRole('link', { name: /Download Signed PDF/ }).getAttribute('href')).toBe(`/api/leases/${leaseId}/signed.pdf`);
    expect(screen.getAllByText('Awaiting signature')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /Sign at the Desk/ })).toBeNull();
  });
});

describe('the Leases list', () => {
  it('filters on the signature: Awaiting Signature asks for the leases not signed, and the tabs count them', async () => {
    const list = answerPage('/api/leases', Lease, [lease]);
    const counts = answer('get', '/api/leases/counts', LeaseCounts, { all: 1, active: 1, inactive: 0 });
    const { user } = renderConsole(<LeasesList onMovedOut={() => {}} />, { role: 'clerk', api: [list, counts] });
    await screen.findByText('Awaiting signature');
    expect(list.sent[0]!.search.get('signature')).toBeNull();

    await user.click(screen.getByRole('combobox', { name: 'Signature' }));
    await user.click(await screen.findByTitle('Awaiting Signature'));
    await waitFor(() => expect(list.sent.at(-1)!.search.get('signature')).toBe('awaiting'));
    expect(counts.sent.at(-1)!.search.get('signature')).toBe('awaiting');
    expect(new URLSearchParams(window.location.search).get('signature')).toBe('awaiting');
  });
});
