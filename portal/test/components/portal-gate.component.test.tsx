import { PORTAL_CODE_REFUSED, PORTAL_CODE_SENT, PORTAL_GATE_MISMATCH, PortalCodeSent, PortalSession } from '@storage/contracts/portal';
import { answer, refuse } from '@storage/testing/component-api';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import CustomerPortalPage from '../../src/app/routes/customer-portal.tsx';
import { fill, type RenderOptions, renderPortal, toastShown } from './render.tsx';

// The customer portal's sign-in gate: what it asks for, what it sends, and each refusal's toast in
// the spec's words. Who the server lets in is the API's to test (api/test/portal.api.test.ts).

const signedOut = () => answer('get', '/api/customer/session', PortalSession, { signedIn: false });

async function openGate(api: RenderOptions['api'] = []) {
  const rendered = renderPortal(<CustomerPortalPage />, { path: '/customer-portal', api: [signedOut(), ...api] });
  await screen.findByRole('button', { name: 'Access My Account' });
  return rendered;
}

describe('customer portal gate', () => {
  it('asks for both the email and the phone digits before sending anything', async () => {
    const { user } = await openGate();
    await user.click(screen.getByRole('button', { name: 'Access My Account' }));
    expect(toastShown()).toEqual({ title: 'Missing Information', description: 'Please enter both email and phone number.' });

    await fill(user, screen.getByLabelText('Email Address'), 'renter@example.com');
    await user.click(screen.getByRole('button', { name: 'Access My Account' }));
    expect(toastShown()).toEqual({ title: 'Missing Information', description: 'Please enter both email and phone number.' });
  });

  it('sends the email and digits, and shows a mismatch as Verification Failed', async () => {
    const mismatch = refuse('post', '/api/customer/verify', 401, { message: PORTAL_GATE_MISMATCH });
    const { user } = await openGate([mismatch]);
    await fill(user, screen.getByLabelText('Email Address'), ' renter@example.com ');
    await fill(user, screen.getByLabelText('Last 4 Digits of Phone'), '0042');
    await user.click(screen.getByRole('button', { name: 'Access My Account' }));
    await waitFor(() => expect(toastShown()).toEqual({ title: 'Verification Failed', description: "Email and phone number don't match our records." }));
    expect(mismatch.sent[0]!.body).toEqual({ email: 'renter@example.com', phoneLast4: '0042' });
  });

  it('asks for the mailed code when the gate sends one, and refuses a wrong code in words', async () => {
    const codeSent = answer('post', '/api/customer/verify', PortalCodeSent, { codeSent: true, message: PORTAL_CODE_SENT }, { status: 202 });
    const wrongCode = refuse('post', '/api/customer/verify-code', 401, { message: PORTAL_CODE_REFUSED });
    const { user } = await openGate([codeSent, wrongCode]);
    await fill(user, screen.getByLabelText('Email Address'), 'renter@example.com');
    await fill(user, screen.getByLabelText('Last 4 Digits of Phone'), '0042');
    await user.click(screen.getByRole('button', { name: 'Access My Account' }));
    await screen.findByRole('heading', { name: 'Check Your Email' });
    screen.getByText('We emailed you a 6-digit sign-in code. Enter it to open your account.');

    await user.click(screen.getByRole('button', { name: 'Verify Code' }));
    expect(toastShown()).toEqual({ title: 'Missing Information', description: 'Please enter the code we emailed you.' });
    await fill(user, screen.getByLabelText('Sign-in Code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify Code' }));
    await waitFor(() =>
      expect(toastShown()).toEqual({ title: 'Verification Failed', description: 'That code is not right, or it has expired. Ask for a new one.' }),
    );
    expect(wrongCode.sent[0]!.body).toEqual({ email: 'renter@example.com', code: '000000' });
  });

  it('says Too Many Attempts when the server holds the gate', async () => {
    const held = refuse('post', '/api/customer/verify', 429, { message: 'Too many attempts. Try again in 15 minutes.' });
    const { user } = await openGate([held]);
    await fill(user, screen.getByLabelText('Email Address'), 'renter@example.com');
    await fill(user, screen.getByLabelText('Last 4 Digits of Phone'), '0042');
    await user.click(screen.getByRole('button', { name: 'Access My Account' }));
    await waitFor(() => expect(toastShown()).toEqual({ title: 'Too Many Attempts', description: 'Too many attempts. Try again in 15 minutes.' }));
  });
});
