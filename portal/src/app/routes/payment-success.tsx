import { type PaymentAccess, type PaymentRecordedResponse, type PaymentSummary, paymentReceiptPath } from '@storage/contracts/payments';
import { useEffect, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import { forgetCheckout, formatAmount, rememberedPaymentAmount, reportPayment } from '../../features/checkout/checkout-api.ts';

// The three outcomes of spec §8, in its words, and a charge the bill could not take (paid already, or another amount).
const outcomes = {
  recorded: { title: 'Payment Successful!', message: 'Your payment has been processed and your account updated.', tone: 'good' },
  pending: { title: 'Payment Received', message: 'Payment successful. Account update may take a few minutes.', tone: 'good' },
  failed: { title: 'Payment Failed', message: 'There was an issue processing your payment.', tone: 'bad' },
  refunded: {
    title: 'Payment Refunded',
    message: 'This bill could not take this card payment (it was already paid, or its amount had changed), so the payment has been refunded to you in full.',
    tone: 'good',
  },
} as const;

// Said only as far as the server can tell: a lockout ends through a reaction to the payment, so
// right after paying it may still be on its way out.
const accessWords: Record<PaymentAccess, { text: string; tone: 'good' | 'bad' }> = {
  restored: { text: 'Your gate access has been restored.', tone: 'good' },
  restoring: { text: 'Your gate access is being restored and will work again within a few minutes.', tone: 'good' },
  suspended: { text: 'Your gate access is still suspended: it is restored once your past-due balance is paid.', tone: 'bad' },
};

export default function PaymentSuccessPage() {
  const query = new URLSearchParams(useSearch());
  const paymentIntentId = query.get('payment_intent');
  const failedRedirect = query.get('redirect_status') === 'failed' || !paymentIntentId;
  const [answer, setAnswer] = useState<PaymentRecordedResponse | null>(null);
  const [outcome, setOutcome] = useState<keyof typeof outcomes | null>(failedRedirect ? 'failed' : null);
  // Read before the answer makes the checkout forget it.
  const [paidAmount] = useState(() => (paymentIntentId ? rememberedPaymentAmount(paymentIntentId) : null));

  useEffect(() => {
    if (failedRedirect) return;
    let current = true;
    void reportPayment(paymentIntentId).then((reported) => {
      if (reported) forgetCheckout();
      if (!current) return;
      setAnswer(reported);
      setOutcome(reported ? (reported.refunded ? 'refunded' : 'recorded') : 'pending');
    });
    return () => {
      current = false;
    };
  }, [failedRedirect, paymentIntentId]);

  // The spec's link also named the renter's email; the portal session knows who they are.
  const portal = '/customer-portal?payment_success=true';
  const shown = outcome ? outcomes[outcome] : null;
  const summary = outcome === 'recorded' ? (answer?.summary ?? null) : null;
  return (
    <>
      <SiteHeader />
      <main className="container checkout-page">
        <section className="checkout-card payment-result" aria-busy={!shown}>
          {shown ? (
            <>
              <h1 className={`payment-result-title payment-result-${shown.tone}`}>{shown.title}</h1>
              <p>{shown.message}</p>
              {outcome === 'recorded' && (
                <p>{answer?.invoiceId === null ? 'Your payment has been applied to your bills, oldest first.' : 'Your invoice has been marked as paid.'}</p>
              )}
              {summary && paymentIntentId && <PaymentDetails summary={summary} paymentIntentId={paymentIntentId} />}
              {outcome === 'pending' && paidAmount && (
                <dl className="checkout-summary payment-result-summary">
                  <div>
                    <dt>Amount paid</dt>
                    <dd className="checkout-amount">{formatAmount(paidAmount)}</dd>
                  </div>
                </dl>
              )}
            </>
          ) : (
            <div className="checkout-spinner" role="status" aria-label="Confirming your payment">
              <span className="checkout-spinner-mark" />
            </div>
          )}
          {paymentIntentId && (
            <p className="payment-result-id">
              Payment ID: <code>{paymentIntentId}</code>
            </p>
          )}
          <Link href={portal} className="button button-primary">
            Return to Customer Portal
          </Link>
        </section>
      </main>
      <SiteFooter />
    </>
  );
}

/** What the payment paid, the balance it left, the gate access, and its receipt. */
function PaymentDetails({ summary, paymentIntentId }: { summary: PaymentSummary; paymentIntentId: string }) {
  const access = summary.access ? accessWords[summary.access] : null;
  return (
    <>
      {access && (
        <p className={`payment-result-access payment-result-access-${access.tone}`} role="status">
          {access.text}
        </p>
      )}
      <dl className="checkout-summary payment-result-summary">
        <div>
          <dt>Amount paid</dt>
          <dd className="checkout-amount">{formatAmount(summary.amount)}</dd>
        </div>
      </dl>
      <section className="payment-result-lines" aria-labelledby="payment-result-applied">
        <h2 id="payment-result-applied">What it paid</h2>
        <dl className="checkout-summary">
          {summary.applied.map((line) => (
            <div key={line.invoiceId}>
              <dt>Invoice {line.invoiceNumber}</dt>
              <dd>{formatAmount(line.amount)}</dd>
            </div>
          ))}
          {summary.credited !== '0.00' && (
            <div>
              <dt>Kept as credit on your account</dt>
              <dd>{formatAmount(summary.credited)}</dd>
            </div>
          )}
        </dl>
      </section>
      <dl className="checkout-summary payment-result-summary">
        <div>
          <dt>Your balance now</dt>
          <dd>{formatAmount(summary.balance)}</dd>
        </div>
        {summary.credit !== '0.00' && (
          <div>
            <dt>Credit on your account</dt>
            <dd>{formatAmount(summary.credit)}</dd>
          </div>
        )}
      </dl>
      <a className="button button-secondary" href={paymentReceiptPath(paymentIntentId)} download>
        Download receipt
      </a>
    </>
  );
}
