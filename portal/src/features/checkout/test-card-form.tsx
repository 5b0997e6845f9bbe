import { serverMessage } from '@storage/web-client/api';
import { type FormEvent, useState } from 'react';
import { EMPTY_TEST_CARD, TestCardInputs } from '../../components/test-card-inputs.tsx';
import { confirmTestPayment } from './checkout-api.ts';
import { type CardFormProps, PayButton } from './pay-button.tsx';

/** The built-in test provider's own card form: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined. */
export function TestCardForm({
  amount,
  paymentIntentId,
  onFailed,
  onSucceeded,
  confirm = confirmTestPayment,
}: CardFormProps & { confirm?: typeof confirmTestPayment }) {
  const [card, setCard] = useState(EMPTY_TEST_CARD);
  const [processing, setProcessing] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProcessing(true);
    try {
      const result = await confirm(paymentIntentId, card);
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
      <TestCardInputs card={card} onChange={setCard} />
      <PayButton amount={amount} processing={processing} />
    </form>
  );
}
