import { LoginAnswer, RecoveryCodes, TwoFactorEnrolment } from '@storage/contracts/auth';
import { answer, declareAnswers, refuse } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SignInForm } from '../../src/features/auth/components/sign-in-form.tsx';
import { TwoFactorSetup } from '../../src/features/auth/components/two-factor-setup.tsx';
import { fill, renderConsole } from './render.tsx';

// Two-factor sign-in's forms: the setup's refusal of a code that is not the current one (under the
// field) and its recovery codes once a right one is typed, and the sign-in's second step refusing
// a wrong code in the server's words and taking a recovery code instead. The codes themselves (a
// real authenticator's) are two-factor.e2e.test.ts's and the API tests' concern.

const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const enrolment: TwoFactorEnrolment = {
  otpauthUri: `otpauth://totp/Self%20Storage:owner%40demo.test?secret=${secret}&issuer=Self%20Storage`,
  secret,
  qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
  expiresAt: '2026-01-01T10:10:00.000Z',
};
const recoveryCodes = Array.from({ length: 10 }, (_, i) => `abcd-efgh-${String(i).padStart(4, '0')}`);

describe('setting up two-factor sign-in', () => {
  it('shows the key in groups of 4, refuses a code that is not the current one under its field, then shows the 10 recovery codes', async () => {
    const started = answer('post', '/api/auth/two-factor/enrolment', TwoFactorEnrolment, enrolment);
    const refused = refuse('post', '/api/auth/two-factor/enrolment/confirm', 400, {
      message: 'code: is not the current code from your authenticator app',
      field: 'code',
    });
    const { user } = renderConsole(<TwoFactorSetup onFinished={() => {}} />, { api: [started, refused] });
    const setup = within(await screen.findByTestId('two-factor-setup'));
    expect(setup.getByTestId('two-factor-secret').textContent).toContain('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    setup.getByRole('img', { name: /QR code/ });
    expect(started.sent).toHaveLength(1);

    const code = setup.getByLabelText('2. Enter the 6-digit code the app shows');
    await fill(user, code, '000000');
    await user.click(setup.getByRole('button', { name: 'Turn On' }));
    await setup.findByText('Code is not the current code from your authenticator app');
    expect(refused.sent[0]!.body).toEqual({ code: '000000' });

    const confirmed = answer('post', '/api/auth/two-factor/enrolment/confirm', RecoveryCodes, { recoveryCodes });
    declareAnswers(confirmed);
    await fill(user, code, '123456');
    await user.click(setup.getByRole('button', { name: 'Turn On' }));
    const list = within(await screen.findByRole('list', { name: 'Recovery codes' }));
    expect(list.getAllByRole('listitem').map((item) => item.textContent?.trim())).toEqual(recoveryCodes);
    expect(confirmed.sent[0]!.body).toEqual({ code: '123456' });
    screen.getByRole('button', { name: 'I Saved My Codes' });
  });
});

describe('signing in with two-factor sign-in on', () => {
  it("asks for the app's code after the password, says why a wrong one is refused, and takes a recovery code instead", async () => {
    const login = answer('post', '/api/auth/login', LoginAnswer, { twoFactorRequired: true });
    const wrong = refuse('post', '/api/auth/two-factor', 401, {
      message: 'That code is not right: enter the current code from your authenticator app, or an unused recovery code',
    });
    const { user } = renderConsole(<SignInForm />, { api: [login, wrong] });
    await fill(user, screen.getByLabelText('Email'), 'owner@demo.test');
    await fill(user, screen.getByLabelText('Password'), 'demo1234');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('Enter the 6-digit code from your authenticator app.');
    expect(login.sent[0]!.body).toEqual({ email: 'owner@demo.test', password: 'demo1234' });

    await fill(user, screen.getByLabelText('Authentication code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText('That code is not right', { exact: false });
    expect(wrong.sent[0]!.body).toEqual({ code: '000000' });

    // Switching to a recovery code clears the refusal of the app's code.
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await screen.findByText('Enter one of the recovery codes you saved when you set up two-factor sign-in. Each code works once.');
    expect(screen.queryByText('That code is not right', { exact: false })).toBeNull();
    await fill(user, screen.getByLabelText('Recovery code'), recoveryCodes[0]!);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(wrong.sent).toHaveLength(2));
    expect(wrong.sent[1]!.body).toEqual({ code: recoveryCodes[0] });
  });
});
