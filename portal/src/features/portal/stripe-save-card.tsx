import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe } from '@stripe/stripe-js';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { startCardSetup } from './autopay-api.ts';

// Saving a card with Stripe: a SetupIntent (made by the server for the renter's Stripe Customer)
// confirmed by Stripe Elements in the browser; the server then asks Stripe for the card. Loaded
// only when Stripe is the provider. Written to Stripe's documentation; not run here (no Stripe).

interface Props {
  publishableKey: string;
  onSaved: (setupIntentId: string) => Promise<void>;
  onFailed: (message: string) => void;
}

function SetupForm({ onSaved, onFailed }: Omit<Props, 'publishableKey'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setSaving(true);
    try {
      const { error, setupIntent } = await stripe.confirmSetup({ elements, confirmParams: { return_url: window.location.href }, redirect: 'if_required' });
      if (error) onFailed(error.message ?? 'Your card could not be saved.');
      else if (setupIntent.status === 'succeeded') await onSaved(setupIntent.id);
      else onFailed(`Saving the card is ${setupIntent.status}.`);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="checkout-card-form" onSubmit={submit}>
      <PaymentElement />
      <button type="submit" className="button button-primary" disabled={!stripe || !elements || saving}>
        {saving ? 'Saving…' : 'Save Card'}
      </button>
    </form>
  );
}

export default function StripeSaveCard({ publishableKey, onSaved, onFailed }: Props) {
  const stripePromise = useMemo(() => loadStripe(publishableKey), [publishableKey]);
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  useEffect(() => {
    startCardSetup()
      .then((setup) => setClientSecret(setup.clientSecret))
      .catch((error: Error) => onFailed(error.message));
  }, [onFailed]);
  if (!clientSecret) return <p className="portal-empty">Loading the card form…</p>;
  return (
    <Elements stripe={stripePromise} options={{ clientSecret }}>
      <SetupForm onSaved={onSaved} onFailed={onFailed} />
    </Elements>
  );
}
