import { LEASE_CHANGED_SINCE_OPENED, LeaseSignature, LeaseToSign } from '@storage/contracts/lease-signatures';
import { answer, declareAnswers, refuse } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LeaseSigning } from '../../src/features/portal/lease-signing.tsx';
import { fill, renderPortal } from './render.tsx';

// A renter signs their lease in the portal: each unit says whether its lease is signed; an
// unsigned one opens the agreement, takes the typed name and the drawn mark and sends the hash of
// the agreement shown; a signed one offers the signed PDF.

const leaseId = '9e1f3b7c-2d4a-4f6b-8a0c-1e2d3c4b5a03';
const path = `/api/customer/leases/${leaseId}/signature`;
const hash = 'b'.repeat(64);
const unsigned: LeaseToSign = {
  leaseId,
  title: 'Storage Unit Lease Agreement',
  text: 'Storage Unit Lease Agreement\n1. Rent is due on the 17th of each month (the day this lease started).',
  documentSha256: hash,
  signature: null,
  signedThisDocument: false,
};
const signedAt = '2026-03-01T15:00:00.000Z';
const signedState: LeaseToSign = { ...unsigned, signature: { signerName: 'Rosa Parks', signedAt, channel: 'online' }, signedThisDocument: true };
const signature: LeaseSignature = {
  leaseId,
  customerId: '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04',
  signerName: 'Rosa Parks',
  signedAt,
  channel: 'online',
  mark: 'M 1 1 L 2 2',
  ipAddress: '198.51.100.4',
  userAgent: 'Phone',
  documentSha256: hash,
  eventId: '7c1e0d2a-4b3f-4e5d-9a8b-0c1d2e3f4a05',
};

async function draw(user: UserEvent, pad: HTMLElement) {
  await user.pointer([
    { keys: '[MouseLeft>]', target: pad, coords: { clientX: 5, clientY: 5 } },
    { target: pad, coords: { clientX: 60, clientY: 30 } },
    { keys: '[/MouseLeft]', target: pad },
  ]);
}

describe('signing the lease in the portal', () => {
  it('shows an unsigned lease awaiting the renter’s signature and signs it with the name, the mark and the hash shown', async () => {
    const signed = answer('post', path, LeaseSignature, signature);
    const { user } = renderPortal(<LeaseSigning leaseId={leaseId} />, { api: [answer('get', path, LeaseToSign, unsigned), signed] });
    await screen.findByText('Awaiting your signature');
    await user.click(screen.getByRole('button', { name: 'Review and sign' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByTestId('agreement-text').textContent).toContain('Rent is due on the 17th of each month');

    await user.click(dialog.getByRole('button', { name: 'Sign' }));
    dialog.getByText('Please type your full name.');
    await fill(user, dialog.getByLabelText('Full Name'), 'Rosa Parks');
    await user.click(dialog.getByRole('button', { name: 'Sign' }));
    dialog.getByText('Please draw your signature.');
    expect(signed.sent).toHaveLength(0);

    await draw(user, dialog.getByTestId('signature-pad'));
    declareAnswers(answer('get', path, LeaseToSign, signedState));
    await user.click(dialog.getByRole('button', { name: 'Sign' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(signed.sent).toHaveLength(1);
    const body = signed.sent[0]!.body as { signerName: string; mark: string; documentSha256: string };
    expect(body).toMatchObject({ signerName: 'Rosa Parks', documentSha256: hash });
    expect(body.mark).toMatch(/^M [\d.]+ [\d.]+ L /);
    await screen.findByText(/^Lease signed by Rosa Parks on /);
    expect(screen.getByRole('link', { name: 'Download signed lease' }).getAttribute('href')).toBe(`/api/customer/leases/${leaseId}/signed.pdf`);
  });

  it('says when the lease changed since it was opened and shows it again', async () => {
    const first = answer('get', path, LeaseToSign, unsigned);
    const { user } = renderPortal(<LeaseSigning leaseId={leaseId} />, {
      api: [first, refuse('post', path, 409, { message: LEASE_CHANGED_SINCE_OPENED, field: 'documentSha256' })],
    });
    await user.click(await screen.findByRole('button', { name: 'Review and sign' }));
    const dialog = within(await screen.findByRole('dialog'));
    await fill(user, dialog.getByLabelText('Full Name'), 'Rosa Parks');
    await draw(user, dialog.getByTestId('signature-pad'));
    await user.click(dialog.getByRole('button', { name: 'Sign' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(LEASE_CHANGED_SINCE_OPENED);
    await waitFor(() => expect(first.sent).toHaveLength(2));
  });

  it('offers the signed PDF of a signed lease and no signing', async () => {
    renderPortal(<LeaseSigning leaseId={leaseId} />, { api: [answer('get', path, LeaseToSign, signedState)] });
    await screen.findByRole('link', { name: 'Download signed lease' });
    expect(screen.queryByRole('button', { name: 'Review and sign' })).toBeNull();
    expect(screen.queryByText('Awaiting your signature')).toBeNull();
  });
});
