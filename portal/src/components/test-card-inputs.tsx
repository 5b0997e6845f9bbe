/** A card as the built-in test provider takes it (never a real card: Stripe's Elements take those). */
export interface TestCard {
  cardNumber: string;
  expiry: string;
  cvc: string;
}

export const EMPTY_TEST_CARD: TestCard = { cardNumber: '', expiry: '', cvc: '' };

/** The test provider's card number, expiry and CVC inputs: the checkout's and the saved-card form's. */
export function TestCardInputs({ card, onChange }: { card: TestCard; onChange: (card: TestCard) => void }) {
  const field = (name: keyof TestCard) => ({
    name,
    value: card[name],
    onChange: (event: { target: { value: string } }) => onChange({ ...card, [name]: event.target.value }),
  });
  return (
    <>
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
    </>
  );
}
