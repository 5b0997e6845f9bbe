import { type PaymentRecordedResponse as Answered, PaymentRecordedResponse, type PaymentSummary } from '@storage/contracts/payments';
import { answer, refuse } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import PaymentSuccessPage from '../../src/app/routes/payment-success.tsx';
import { rememberPayment } from '../../src/features/checkout/checkout-api.ts';
import { renderPortal } from './render.tsx';

// The payment result page (/payment-success): the spec's titles and messages for each outcome,
// and, for a recorded payment, what the server says it did: the amount, each invoice it paid and
// any part kept as credit, the balance after it, the gate access, and the receipt to download.
// What the server works out is the API's to test (api/test/payment-result.api.test.ts).

const intentId = 'pi_test_result1';
const report = '/api/stripe/webhook/simulate';

const summary: PaymentSummary = {
  amount: '130.00',
  paidDate: '2026-03-02',
  applied: [
    { invoiceId: '8a3b6c1e-1d2f-4a5b-9c8d-7e6f5a4b3c2d', invoiceNumber: 'INV-1001', amount: '100.00' },
    { invoiceId: '9b4c7d2f-2e3a-4b6c-8d9e-8f7a6b5c4d3e', invoiceNumber: 'INV-1002', amount: '25.00' },
  ],
  credited: '5.00',
  balance: '0.00',
  credit: '5.00',
  access: null,
};

const recorded = (overrides: Partial<Answered> = {}): Answered => ({
  paymentIntentId: intentId,
  invoiceId: null,
  recorded: true,
  refunded: false,
  summary,
  ...overrides,
});

function openResult(reported: ReturnType<typeof answer> | ReturnType<typeof refuse>, query = `payment_intent=${intentId}&redirect_status=succeeded`) {
  return renderPortal(<PaymentSuccessPage />, { path: `/payment-success?${query}`, api: [reported] });
}

const portalLink = () => screen.getByRole('link', { name: 'Return to Customer Portal' });

afterEach(() => {
  sessionStorage.clear();
  vi.restoreAllMocks();
});

describe('the payment result page', () => {
  it('shows a recorded payment: the amount, each invoice it paid, the credit kept, the balance after it and the receipt', async () => {
    const reported = answer('post', report, PaymentRecordedResponse, recorded(), { status: 200 });
    openResult(reported);
    await screen.findByRole('heading', { name: 'Payment Successful!' });
    screen.getByText('Your payment has been processed and your account updated.');
    screen.getByText('Your payment has been applied to your bills, oldest first.');

    const amount = screen.getByText('Amount paid').parentElement!;
    expect(within(amount).getByText('$130.00')).toBeTruthy();
    const lines = screen.getByRole('region', { name: 'What it paid' });
    const rows = [...lines.querySelectorAll('dl > div')].map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Invoice INV-1001', '$100.00'],
      ['Invoice INV-1002', '$25.00'],
      ['Kept as credit on your account', '$5.00'],
    ]);
    expect(within(screen.getByText('Your balance now').parentElement!).getByText('$0.00')).toBeTruthy();
    expect(within(screen.getByText('Credit on your account').parentElement!).getByText('$5.00')).toBeTruthy();

    expect(screen.getByRole('link', { name: 'Download receipt' }).getAttribute('href')).toBe(`/api/customer/payments/${intentId}/receipt.pdf`);
    expect(screen.getByText(intentId).closest('.payment-result-id')?.textContent).toBe(`Payment ID: ${intentId}`);
    expect(portalLink().getAttribute('href')).toBe('/customer-portal?payment_success=true');
    expect(screen.queryByText(/gate access/)).toBeNull();
    // The report names the payment; the page names no email anywhere.
    expect(reported.sent[0]!.body).toEqual({ paymentIntentId: intentId });
  });

  it('says an invoice was marked as paid, with no credit line when nothing was kept', async () => {
    const one = { ...summary, amount: '100.00', applied: [summary.applied[0]!], credited: '0.00', balance: '45.50', credit: '0.00' };
    openResult(answer('post', report, PaymentRecordedResponse, recorded({ invoiceId: one.applied[0]!.invoiceId, summary: one }), { status: 200 }));
    await screen.findByText('Your invoice has been marked as paid.');
    expect(screen.queryByText('Kept as credit on your account')).toBeNull();
    expect(screen.queryByText('Credit on your account')).toBeNull();
    expect(within(screen.getByText('Your balance now').parentElement!).getByText('$45.50')).toBeTruthy();
  });

  it.each([
    ['restored', 'Your gate access has been restored.'],
    ['restoring', 'Your gate access is being restored and will work again within a few minutes.'],
    ['suspended', 'Your gate access is still suspended: it is restored once your past-due balance is paid.'],
  ] as const)('tells a locked-out renter their access is %s, in plain words', async (access, words) => {
    openResult(answer('post', report, PaymentRecordedResponse, recorded({ summary: { ...summary, access } }), { status: 200 }));
    expect((await screen.findByText(words)).getAttribute('role')).toBe('status');
  });

  it('shows only what it knows while the account update is pending: the amount paid, no lines, balance or receipt', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    rememberPayment(intentId, '130.00');
    openResult(refuse('post', report, 503, { message: 'Service Unavailable' }));
    await screen.findByRole('heading', { name: 'Payment Received' });
    screen.getByText('Payment successful. Account update may take a few minutes.');
    expect(within(screen.getByText('Amount paid').parentElement!).getByText('$130.00')).toBeTruthy();
    for (const absent of ['What it paid', 'Your balance now', 'Download receipt']) expect(screen.queryByText(absent)).toBeNull();
    screen.getByText(intentId);
    portalLink();
  });

  it('shows no amount while pending when the checkout kept none for this payment', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    rememberPayment('pi_test_another', '99.00');
    openResult(refuse('post', report, 503, { message: 'Service Unavailable' }));
    await screen.findByRole('heading', { name: 'Payment Received' });
    expect(screen.queryByText('Amount paid')).toBeNull();
  });

  it('says a payment the bill could not take was refunded, with no receipt', async () => {
    openResult(
      answer('post', report, PaymentRecordedResponse, recorded({ invoiceId: summary.applied[0]!.invoiceId, recorded: false, refunded: true, summary: null }), {
        status: 200,
      }),
    );
    await screen.findByRole('heading', { name: 'Payment Refunded' });
    screen.getByText(/so the payment has been refunded to you in full\.$/);
    for (const absent of ['Amount paid', 'Download receipt', 'Your invoice has been marked as paid.']) expect(screen.queryByText(absent)).toBeNull();
    screen.getByText(intentId);
    portalLink();
  });

  it('says a failed payment failed without reporting it', async () => {
    const reported = answer('post', report, PaymentRecordedResponse, recorded(), { status: 200 });
    openResult(reported, `payment_intent=${intentId}&redirect_status=failed`);
    await screen.findByRole('heading', { name: 'Payment Failed' });
    screen.getByText('There was an issue processing your payment.');
    expect(screen.queryByText('Download receipt')).toBeNull();
    expect(reported.sent).toHaveLength(0);
    portalLink();
  });

  it('keeps the older words when the answer has no summary (the report came from no portal session)', async () => {
    openResult(answer('post', report, PaymentRecordedResponse, recorded({ summary: null }), { status: 200 }));
    await screen.findByText('Your payment has been applied to your bills, oldest first.');
    for (const absent of ['Amount paid', 'Download receipt']) expect(screen.queryByText(absent)).toBeNull();
  });
});
