import { LeaseToSign } from '@storage/contracts/lease-signatures';
import { RentalCheckout, RentalOffer, RentalStatus } from '@storage/contracts/online-rentals';
import { ConfirmTestPaymentResponse } from '@storage/contracts/payments';
import { answer, refuse } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TestCardForm } from '../../src/features/checkout/test-card-form.tsx';
import { FinishRental, type RentalCardForm } from '../../src/features/rent-now/finish-rental.tsx';
import { fill, renderPortal } from './render.tsx';

// Finishing an online reservation on its confirmation page: the choices go with every request, the
// lines due today are the server's quote, the test card pays by the link's token, and the answer
// shows the gate code. What the server does with them is the API's to test (online-rentals.api.test.ts).

const token = 'link-token-1';
const reservationId = '5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const plan = { planId: '6d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a', name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' };
const promotion = {
  promotionId: '7e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b',
  name: 'Web special',
  terms: { kind: 'percent_off' as const, percent: '50', months: 1 },
  words: '50% off the first month',
};
const unit = { unitNumber: '101', building: 'W', size: '10x10' as const, facilityName: 'Portland' };
const line = (kind: 'prorated_rent' | 'discount' | 'protection', description: string, amount: string) => ({
  kind,
  description,
  amount,
  periodStart: null,
  periodEnd: null,
});

/** The test provider's form, as the confirmation page composes it. */
const testCardForm: RentalCardForm = ({ provider: _provider, publishableKey: _key, confirmTest, ...form }) => <TestCardForm {...form} confirm={confirmTest} />;
const hash = 'a'.repeat(64);
const toSign: LeaseToSign = {
  leaseId: reservationId,
  title: 'Storage Unit Lease Agreement',
  text: 'Storage Unit Lease Agreement\n1. Rent is due on the 1st.',
  documentSha256: hash,
  signature: null,
  signedThisDocument: false,
};

const offer = (lines: ReturnType<typeof line>[], total: string): RentalOffer => ({
  reservationId,
  unit,
  moveInDate: '2030-03-20',
  quote: {
    unitId: '8f4a5b6c-7d8e-4f9a-8b1c-2d3e4f5a6b7c',
    startDate: '2030-03-20',
    monthlyRate: '120.00',
    today: '2030-03-18',
    dueToday: [
      {
        kind: 'move-in',
        description: 'Move-in charges',
        periodStart: '2030-03-20',
        periodEnd: '2030-03-31',
        issueDate: '2030-03-20',
        dueDate: '2030-03-20',
        lines,
        total,
      },
    ],
    totalDueToday: total,
    nextInvoice: null,
    protection: null,
    promotion: null,
    offers: { plans: [plan], promotions: [promotion] },
  },
});

/** Types the name, draws a stroke on the pad and signs, in the open signing dialog. */
async function signAs(user: ReturnType<typeof renderPortal>['user'], dialog: ReturnType<typeof within>, name: string) {
  await fill(user, dialog.getByLabelText('Full Name'), name);
  const pad = dialog.getByTestId('signature-pad');
  await user.pointer([
    { keys: '[MouseLeft>]', target: pad, coords: { clientX: 5, clientY: 5 } },
    { target: pad, coords: { clientX: 60, clientY: 30 } },
    { keys: '[/MouseLeft]', target: pad },
  ]);
  await user.click(dialog.getByRole('button', { name: 'Sign' }));
}

describe('finishing a rental online', () => {
  it('sends the plan and promotion chosen, signs the agreement they make, pays with the test card by the link, and shows the gate code', async () => {
    const offered = answer(
      'post',
      '/api/public/rentals/offer',
      RentalOffer,
      offer([line('prorated_rent', 'Prorated rent Mar 20 – Mar 31, 2030 (12 of 31 days)', '46.45')], '46.45'),
      { status: 200 },
    );
    const checkout = answer(
      'post',
      '/api/public/rentals/checkout',
      RentalCheckout,
      { kind: 'pay', paymentIntentId: 'pi_rental_1', clientSecret: 'secret', amount: '35.23', provider: 'test', publishableKey: null },
      { status: 200 },
    );
    const card = answer(
      'post',
      '/api/public/rentals/test-payment',
      ConfirmTestPaymentResponse,
      { paymentIntentId: 'pi_rental_1', status: 'succeeded', error: null },
      { status: 200 },
    );
    const rented = {
      status: 'rented' as const,
      reservationId,
      unit,
      moveInDate: '2030-03-20',
      gateCode: '482913',
      accessHours: '6:00 AM – 10:00 PM every day',
      signed: true,
      message: 'Your unit is rented.',
    };
    const completed = answer('post', '/api/public/rentals/complete', RentalStatus, rented, { status: 200 });
    const agreement = answer('post', '/api/public/rentals/agreement', LeaseToSign, toSign, { status: 200 });
    const { user } = renderPortal(<FinishRental token={token} cardForm={testCardForm} />, {
      path: '/reservations/confirm',
      api: [offered, checkout, card, completed, agreement],
    });

    const dueToday = await screen.findByRole('table', { name: 'Due today' });
    expect(within(dueToday).getByText('$46.45', { selector: 'tfoot td' })).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: /Basic: \$2,000\.00 coverage/ }));
    await user.click(screen.getByRole('radio', { name: /Web special: 50% off the first month/ }));
    await expect.poll(() => offered.sent.at(-1)?.body).toEqual({ token, protectionPlanId: plan.planId, promotionId: promotion.promotionId });

    // The agreement those choices make is read and signed first; the signature goes with the payment's start.
    await user.click(screen.getByRole('button', { name: 'Review and Sign Your Lease' }));
    expect(agreement.sent[0]!.body).toEqual({ token, protectionPlanId: plan.planId, promotionId: promotion.promotionId });
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByTestId('agreement-text').textContent).toContain('Rent is due on the 1st.');
    await signAs(user, dialog, 'Rita Renter');
    expect(await screen.findByText('Lease signed. Pay $35.23 to finish your rental.')).toBeTruthy();
    expect(checkout.sent[0]!.body).toMatchObject({
      token,
      protectionPlanId: plan.planId,
      promotionId: promotion.promotionId,
      signature: { signerName: 'Rita Renter', documentSha256: toSign.documentSha256, mark: expect.stringMatching(/^M /) },
    });
    await fill(user, await screen.findByLabelText(/card number/i), '4242 4242 4242 4242');
    await fill(user, screen.getByLabelText(/expir/i), '12/34');
    await fill(user, screen.getByLabelText(/cvc/i), '123');
    await user.click(screen.getByRole('button', { name: 'Pay $35.23' }));

    expect(await screen.findByRole('heading', { name: 'Your Unit Is Rented' })).toBeTruthy();
    expect(card.sent[0]!.body).toMatchObject({ token, paymentIntentId: 'pi_rental_1', card: { cardNumber: '4242 4242 4242 4242' } });
    expect(completed.sent[0]!.body).toEqual({ token, paymentIntentId: 'pi_rental_1' });
    expect(await screen.findByText('482913')).toBeTruthy();
    expect(screen.getByTestId('rental-access-hours').textContent).toBe('Access hours: 6:00 AM – 10:00 PM every day');
  });

  it('has the renter read the agreement again when it changed since they opened it', async () => {
    const offered = answer('post', '/api/public/rentals/offer', RentalOffer, offer([line('prorated_rent', 'Prorated rent', '46.45')], '46.45'), {
      status: 200,
    });
    const agreement = answer('post', '/api/public/rentals/agreement', LeaseToSign, toSign, { status: 200 });
    const changed = refuse('post', '/api/public/rentals/checkout', 409, { message: 'The lease changed since you opened it. Please review it again.' });
    const { user } = renderPortal(<FinishRental token={token} cardForm={testCardForm} />, {
      path: '/reservations/confirm',
      api: [offered, agreement, changed],
    });
    await user.click(await screen.findByRole('button', { name: 'Review and Sign Your Lease' }));
    const dialog = within(await screen.findByRole('dialog'));
    await signAs(user, dialog, 'Rita Renter');
    expect((await dialog.findByRole('alert')).textContent).toBe('The lease changed since you opened it. Please review it again.');
    await expect.poll(() => agreement.sent.length).toBe(2);
    expect(screen.queryByLabelText(/card number/i)).toBeNull();
  });

  it('says why when the reservation can no longer be finished online', async () => {
    renderPortal(<FinishRental token={token} cardForm={testCardForm} />, {
      path: '/reservations/confirm',
      api: [refuse('post', '/api/public/rentals/offer', 409, { message: 'This reservation was cancelled. Please reserve a unit again.' })],
    });
    expect((await screen.findByRole('alert')).textContent).toContain('This reservation was cancelled');
    expect(screen.queryByRole('button', { name: 'Review and Sign Your Lease' })).toBeNull();
  });
});
