import { serverMessage } from '@storage/web-client/api';
import { type FormEvent, useState } from 'react';
import { confirmTestPayment } from './checkout-api.ts';
import { type CardFormProps, PayButton } from './pay-button.tsx';

/** The built-in test provider's own card form: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined. */
export function TestCardForm({ amount, paymentIntentId, onFailed, onSucceeded }: CardFormProps) {
  const [card, setCard] = useState({ cardNumber: '', expiry: '', cvc: '' });
  const [processing, setProcessing] = useState(false);
  const field = (name: keyof typeof card) => ({
    name,
    value: card[name],
    onChange: (event: { target: { value: string } }) => setCard((current) => ({ ...current, [name]: event.target.value })),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProcessing(true);
    try {
      const result = await confirmTestPayment(paymentIntentId, card);
      if (result.error) onFailed(result.error.message);
      else onSucceeded(result.paymentIntentId);
    } catch (error) {
      onFailed(serverMessage(error as Error));
    } finally {
      setProcessing(false);
    }
  }

  return (
    <form className="checkout-card-form" onSubmit={submit}>
      <p className="checkout-test-note">Test payments: use card 4242 4242 4242 4242 with any future expiry and any CVC.</p>
      <label className="checkout-field">
        <span>Card number</span>
        <input {...field('cardNumber')} inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" required />
      </label>
      <div className="checkout-field-row">
        <label className="checkout-field">
          <span>Expiry</span>
          <input {...field('expiry')} autoComplete="cc-exp" placeholder="MM/YY" required />
        </label>
        <label className="checkout-field">
          <span>CVC</span>
          <input {...field('cvc')} inputMode="numeric" autoComplete="cc-csc" placeholder="123" required />
        </label>
      </div>
      <PayButton amount={amount} processing={processing} />
    </form>
  );
}
