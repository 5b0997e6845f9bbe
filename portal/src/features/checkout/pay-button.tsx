import { formatAmount } from './checkout-api.ts';

export function PayButton({ amount, processing, disabled = false }: { amount: string; processing: boolean; disabled?: boolean }) {
  return (
    <button type="submit" className="button button-primary button-large checkout-pay" disabled={processing || disabled}>
      {processing ? 'Processing...' : `Pay ${formatAmount(amount)}`}
    </button>
  );
}

/** What a card form reports back to the checkout. */
export interface CardFormProps {
  amount: string;
  paymentIntentId: string;
  clientSecret: string;
  /** Where Stripe returns when a payment needs a redirect (e.g. 3-D Secure). */
  returnUrl: string;
  onFailed(message: string): void;
  onSucceeded(paymentIntentId: string): void;
}
