import type { CreatePaymentIntentResponse, PaymentConfig } from '@storage/contracts/payments';
import type { PortalAccount, PortalInvoice } from '@storage/contracts/portal';
import { serverMessage } from '@storage/web-client/api';
import { type FormEvent, lazy, Suspense, useEffect, useState } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import {
  createAccountPaymentIntent,
  createPaymentIntent,
  forgetCheckout,
  formatAmount,
  loadCustomerInvoices,
  loadPaymentConfig,
  paymentSuccessPath,
  rememberCheckout,
  rememberPayment,
} from '../../features/checkout/checkout-api.ts';
import type { CardFormProps } from '../../features/checkout/pay-button.tsx';
import { TestCardForm } from '../../features/checkout/test-card-form.tsx';
import { gateThenBack } from '../../features/portal/after-gate.ts';
import { loadAccount, loadPortalSession } from '../../features/portal/portal-api.ts';
import { Toast, useToast } from '../../features/portal/toast.tsx';

const StripeCardForm = lazy(() => import('../../features/checkout/stripe-card-form.tsx'));

const REDIRECT_AFTER_PAYMENT_MS = 1500;

/** Paying one whole invoice (/checkout/{invoiceId}), or an amount toward the whole balance (/checkout). */
type Checkout =
  | { kind: 'invoice'; config: PaymentConfig; invoice: PortalInvoice; intent: CreatePaymentIntentResponse }
  | { kind: 'account'; config: PaymentConfig; account: PortalAccount; intent: CreatePaymentIntentResponse | null };

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
      if (!invoiceId) {
        const [config, account] = await Promise.all([loadPaymentConfig(), loadAccount()]);
        if (current) setCheckout({ kind: 'account', config, account, intent: null });
        return;
      }
      const [config, invoices] = await Promise.all([loadPaymentConfig(), loadCustomerInvoices()]);
      const invoice = invoices.find((i) => i.id === invoiceId);
      if (!invoice) throw new Error(`Invoice ${invoiceId} is not among the customer's invoices`);
      const intent = await createPaymentIntent(invoice);
      if (!current) return;
      rememberCheckout({ invoiceId: invoice.id, customerId: invoice.customerId });
      rememberPayment(intent.paymentIntentId, intent.amount);
      setCheckout({ kind: 'invoice', config, invoice, intent });
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
    const { config, intent } = checkout;
    const cardForm = (paying: CreatePaymentIntentResponse) => {
      const formProps: CardFormProps = {
        amount: paying.amount,
        paymentIntentId: paying.paymentIntentId,
        clientSecret: paying.clientSecret,
        returnUrl: `${window.location.origin}/payment-success`,
        onFailed: failed,
        onSucceeded: succeeded,
      };
      return config.provider === 'stripe' && config.publishableKey ? (
        <Suspense fallback={<Spinner />}>
          <StripeCardForm {...formProps} publishableKey={config.publishableKey} />
        </Suspense>
      ) : (
        <TestCardForm {...formProps} />
      );
    };
    content =
      checkout.kind === 'invoice' ? (
        <section className="checkout-card">
          <p className="eyebrow">Secure checkout</p>
          <h1>Invoice {checkout.invoice.invoiceNumber}</h1>
          <dl className="checkout-summary">
            <div>
              <dt>Amount</dt>
              <dd className="checkout-amount">{formatAmount(checkout.intent.amount)}</dd>
            </div>
            <div>
              <dt>Description</dt>
              <dd>{checkout.invoice.description ?? '—'}</dd>
            </div>
          </dl>
          {cardForm(checkout.intent)}
        </section>
      ) : (
        <section className="checkout-card">
          <p className="eyebrow">Secure checkout</p>
          <h1>Pay toward your balance</h1>
          <dl className="checkout-summary">
            <div>
              <dt>Balance</dt>
              <dd className="checkout-amount">{formatAmount(checkout.account.openBalance)}</dd>
            </div>
            <div>
              <dt>Minimum due</dt>
              <dd>{formatAmount(checkout.account.minimumDue)}</dd>
            </div>
          </dl>
          {intent ? (
            <>
              <p className="checkout-chosen">
                Paying {formatAmount(intent.amount)}.{' '}
                <button type="button" className="link-button" onClick={() => setCheckout({ ...checkout, intent: null })}>
                  Change amount
                </button>
              </p>
              {cardForm(intent)}
            </>
          ) : (
            <AmountForm account={checkout.account} onIntent={(created) => setCheckout({ ...checkout, intent: created })} />
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

/** The amount toward the whole balance: from the minimum due up to the balance, the whole balance unless the renter changes it. */
function AmountForm({ account, onIntent }: { account: PortalAccount; onIntent: (intent: CreatePaymentIntentResponse) => void }) {
  const [amount, setAmount] = useState(account.openBalance);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (Number(account.openBalance) <= 0) return <p className="portal-empty">Your account is up to date: nothing is owed.</p>;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // A payment toward the balance names no invoice: the server decides what it covers.
      forgetCheckout();
      const intent = await createAccountPaymentIntent(amount);
      rememberPayment(intent.paymentIntentId, intent.amount);
      onIntent(intent);
    } catch (failure) {
      setError(serverMessage(failure as Error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="checkout-card-form" onSubmit={submit}>
      <label className="checkout-field">
        <span>Amount to pay</span>
        <input
          name="amount"
          type="number"
          inputMode="decimal"
          min={account.minimumDue}
          max={account.openBalance}
          step="0.01"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          aria-describedby="checkout-amount-range"
          required
        />
      </label>
      <p id="checkout-amount-range" className="portal-muted">
        Any amount from {formatAmount(account.minimumDue)} (the minimum due) up to {formatAmount(account.openBalance)} (your whole balance). It pays your oldest
        bills first.
      </p>
      {error && (
        <p className="form-notice form-notice-bad" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button-primary button-large" disabled={busy}>
        {busy ? 'Processing...' : 'Continue to payment'}
      </button>
    </form>
  );
}
