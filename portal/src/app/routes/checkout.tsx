import type { CreatePaymentIntentResponse, PaymentConfig } from '@storage/contracts/payments';
import type { PortalInvoice } from '@storage/contracts/portal';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import {
  createPaymentIntent,
  formatAmount,
  loadCustomerInvoices,
  loadPaymentConfig,
  paymentSuccessPath,
  rememberCheckout,
} from '../../features/checkout/checkout-api.ts';
import type { CardFormProps } from '../../features/checkout/pay-button.tsx';
import { TestCardForm } from '../../features/checkout/test-card-form.tsx';
import { gateThenBack } from '../../features/portal/after-gate.ts';
import { loadPortalSession } from '../../features/portal/portal-api.ts';
import { Toast, useToast } from '../../features/portal/toast.tsx';

const StripeCardForm = lazy(() => import('../../features/checkout/stripe-card-form.tsx'));

const REDIRECT_AFTER_PAYMENT_MS = 1500;

interface Checkout {
  config: PaymentConfig;
  invoice: PortalInvoice;
  intent: CreatePaymentIntentResponse;
}

function Spinner() {
  return (
    <div className="checkout-spinner" role="status" aria-label="Loading checkout">
      <span className="checkout-spinner-mark" />
    </div>
  );
}

export default function CheckoutPage() {
  const params = useParams<{ invoiceId?: string }>();
  const query = new URLSearchParams(useSearch());
  const invoiceId = params.invoiceId ?? query.get('invoiceId');
  const [, navigate] = useLocation();
  const [checkout, setCheckout] = useState<Checkout | null>(null);
  const { toast, show, dismiss } = useToast();

  useEffect(() => {
    let current = true;
    (async () => {
      // Without a portal session the invoices cannot be read: the renter verifies at the gate,
      // which brings them back here.
      if (!(await loadPortalSession()).signedIn) {
        if (current) navigate(gateThenBack(window.location.pathname + window.location.search), { replace: true });
        return;
      }
      const [config, invoices] = await Promise.all([loadPaymentConfig(), loadCustomerInvoices()]);
      const invoice = invoices.find((i) => i.id === invoiceId);
      if (!invoice) throw new Error(`Invoice ${invoiceId ?? '(none)'} is not among the customer's invoices`);
      const intent = await createPaymentIntent(invoice);
      if (!current) return;
      rememberCheckout({ invoiceId: invoice.id, customerId: invoice.customerId });
      setCheckout({ config, invoice, intent });
    })().catch((error: unknown) => {
      // The spinner stays (spec §8): the error is only logged.
      console.error('Loading the checkout failed', error);
    });
    return () => {
      current = false;
    };
  }, [invoiceId, navigate]);

  function succeeded(paymentIntentId: string) {
    show({ title: 'Payment Successful', description: 'Your payment has been processed.' });
    setTimeout(() => navigate(paymentSuccessPath(paymentIntentId)), REDIRECT_AFTER_PAYMENT_MS);
  }

  function failed(message: string) {
    show({ title: 'Payment Failed', description: message, tone: 'error' });
  }

  let content = <Spinner />;
  if (checkout) {
    const { config, invoice, intent } = checkout;
    const formProps: CardFormProps = {
      amount: intent.amount,
      paymentIntentId: intent.paymentIntentId,
      clientSecret: intent.clientSecret,
      returnUrl: `${window.location.origin}/payment-success`,
      onFailed: failed,
      onSucceeded: succeeded,
    };
    content = (
      <section className="checkout-card">
        <p className="eyebrow">Secure checkout</p>
        <h1>Invoice {invoice.invoiceNumber}</h1>
        <dl className="checkout-summary">
          <div>
            <dt>Amount</dt>
            <dd className="checkout-amount">{formatAmount(intent.amount)}</dd>
          </div>
          <div>
            <dt>Description</dt>
            <dd>{invoice.description ?? '—'}</dd>
          </div>
        </dl>
        {config.provider === 'stripe' && config.publishableKey ? (
          <Suspense fallback={<Spinner />}>
            <StripeCardForm {...formProps} publishableKey={config.publishableKey} />
          </Suspense>
        ) : (
          <TestCardForm {...formProps} />
        )}
      </section>
    );
  }

  return (
    <>
      <SiteHeader />
      <main className="container checkout-page">{content}</main>
      <SiteFooter />
      <Toast toast={toast} onDismiss={dismiss} />
    </>
  );
}
