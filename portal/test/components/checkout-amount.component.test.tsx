import { CreatePaymentIntentResponse, PaymentConfig } from '@storage/contracts/payments';
import { PortalAccount, type PortalProfile, PortalSession } from '@storage/contracts/portal';
import { answer, refuse } from '@storage/testing/component-api';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import CheckoutPage from '../../src/app/routes/checkout.tsx';
import { fill, type RenderOptions, renderPortal } from './render.tsx';

// Paying toward the whole balance (/checkout): the amount the form starts at, the range it allows
// and says, what it sends, and the server's refusal of an amount outside the range in its words.
// Which amounts the server takes is the API's to test (api/test/payments.api.test.ts).

const profile: PortalProfile = {
  firstName: 'Rita',
  lastName: 'Renter',
  email: 'rita@example.com',
  phone: '555-0100',
  address: null,
  createdAt: '2025-01-02T10:00:00.000Z',
};

function openCheckout(account: PortalAccount, api: RenderOptions['api'] = []) {
  return renderPortal(<CheckoutPage />, {
    path: '/checkout',
    api: [
      answer('get', '/api/customer/session', PortalSession, { signedIn: true, profile }),
      answer('get', '/api/payments/config', PaymentConfig, { provider: 'test', publishableKey: null }),
      answer('get', '/api/customer/account', PortalAccount, account),
      ...api,
    ],
  });
}

const owing: PortalAccount = { openBalance: '250.00', status: 'OVERDUE', minimumDue: '100.00', credit: '0.00' };

describe('checkout: an amount toward the balance', () => {
  it('starts at the whole balance and says the range, from the minimum due up to the balance', async () => {
    openCheckout(owing);
    const amount = (await screen.findByLabelText('Amount to pay')) as HTMLInputElement;
    expect(amount.value).toBe('250.00');
    expect([amount.min, amount.max, amount.step, amount.required]).toEqual(['100.00', '250.00', '0.01', true]);
    screen.getByText('Any amount from $100.00 (the minimum due) up to $250.00 (your whole balance). It pays your oldest bills first.');
  });

  it('sends the amount typed and goes on to the payment of it', async () => {
    const intent = answer('post', '/api/customer/account-payment-intent', CreatePaymentIntentResponse, {
      clientSecret: 'pi_test_1_secret',
      paymentIntentId: 'pi_test_1',
      amount: '120.50',
    });
    const { user } = openCheckout(owing, [intent]);
    await fill(user, await screen.findByLabelText('Amount to pay'), '120.50');
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await screen.findByText(/Paying \$120\.50\./);
    expect(intent.sent[0]!.body).toEqual({ amount: '120.50' });
  });

  it("shows the server's refusal of an amount outside the range", async () => {
    const refused = refuse('post', '/api/customer/account-payment-intent', 400, {
      message: 'amount: must be from $100.00 (the minimum due) to $250.00 (the whole balance)',
      field: 'amount',
    });
    const { user } = openCheckout(owing, [refused]);
    // The field's own range stops a browser from sending it; the server's check is the one that counts.
    const amount = await screen.findByLabelText('Amount to pay');
    amount.removeAttribute('min');
    await fill(user, amount, '99.99');
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect((await screen.findByRole('alert')).textContent).toBe('amount: must be from $100.00 (the minimum due) to $250.00 (the whole balance)');
    expect(refused.sent[0]!.body).toEqual({ amount: '99.99' });
    screen.getByRole('button', { name: 'Continue to payment' });
  });

  it.each(['99.99', '250.01', ''])('does not send %j: the field allows only the minimum due up to the balance', async (typed) => {
    const intent = answer('post', '/api/customer/account-payment-intent', CreatePaymentIntentResponse, {
      clientSecret: 'pi_test_1_secret',
      paymentIntentId: 'pi_test_1',
      amount: '250.00',
    });
    const { user } = openCheckout(owing, [intent]);
    const amount = (await screen.findByLabelText('Amount to pay')) as HTMLInputElement;
    await user.clear(amount);
    if (typed) await fill(user, amount, typed);
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(amount.checkValidity()).toBe(false);
    // A submit that went through would say Processing... at once.
    screen.getByRole('button', { name: 'Continue to payment' });
    expect(intent.sent).toHaveLength(0);
  });

  it('says nothing is owed when the balance is paid', async () => {
    openCheckout({ openBalance: '0.00', status: 'CURRENT', minimumDue: '0.00', credit: '12.00' });
    await screen.findByText('Your account is up to date: nothing is owed.');
    expect(screen.queryByLabelText('Amount to pay')).toBeNull();
  });
});
