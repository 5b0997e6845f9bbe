import { useEffect, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import { forgetCheckout, reportPayment } from '../../features/checkout/checkout-api.ts';

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

export default function PaymentSuccessPage() {
  const query = new URLSearchParams(useSearch());
  const paymentIntentId = query.get('payment_intent');
  const failedRedirect = query.get('redirect_status') === 'failed' || !paymentIntentId;
  const [outcome, setOutcome] = useState<keyof typeof outcomes | null>(failedRedirect ? 'failed' : null);
  const [towardBalance, setTowardBalance] = useState(false);

  useEffect(() => {
    if (failedRedirect) return;
    let current = true;
    void reportPayment(paymentIntentId).then((answer) => {
      if (answer) forgetCheckout();
      if (current && answer) setTowardBalance(answer.invoiceId === null);
      if (current) setOutcome(answer ? (answer.refunded ? 'refunded' : 'recorded') : 'pending');
    });
    return () => {
      current = false;
    };
  }, [failedRedirect, paymentIntentId]);

  // The spec's link also named the renter's email; the portal session knows who they are.
  const portal = '/customer-portal?payment_success=true';
  const shown = outcome ? outcomes[outcome] : null;
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
                <p>{towardBalance ? 'Your payment has been applied to your bills, oldest first.' : 'Your invoice has been marked as paid.'}</p>
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
