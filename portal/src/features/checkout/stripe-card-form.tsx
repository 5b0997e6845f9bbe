import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe } from '@stripe/stripe-js';
import { type FormEvent, useMemo, useState } from 'react';
import { type CardFormProps, PayButton } from './pay-button.tsx';

// Loaded only when Stripe is the provider, so the portal never fetches Stripe.js otherwise.

function StripePaymentForm({ amount, returnUrl, onFailed, onSucceeded }: CardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [processing, setProcessing] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setProcessing(true);
    // Confirmed in the browser without a redirect unless the card needs one.
    const { error, paymentIntent } = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl }, redirect: 'if_required' });
    setProcessing(false);
    if (error) onFailed(error.message ?? 'Your payment could not be processed.');
    else if (paymentIntent.status === 'succeeded') onSucceeded(paymentIntent.id);
    else onFailed(`The payment is ${paymentIntent.status}.`);
  }

  return (
    <form className="checkout-card-form" onSubmit={submit}>
      <PaymentElement />
      <PayButton amount={amount} processing={processing} disabled={!stripe || !elements} />
    </form>
  );
}

export default function StripeCardForm(props: CardFormProps & { publishableKey: string }) {
  const stripePromise = useMemo(() => loadStripe(props.publishableKey), [props.publishableKey]);
  return (
    <Elements stripe={stripePromise} options={{ clientSecret: props.clientSecret }}>
      <StripePaymentForm {...props} />
    </Elements>
  );
}
