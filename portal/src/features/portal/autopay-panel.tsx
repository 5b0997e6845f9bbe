import type { PaymentProfile } from '@storage/contracts/autopay';
import type { PaymentConfig } from '@storage/contracts/payments';
import { serverMessage } from '@storage/web-client/api';
import { type FormEvent, lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { EMPTY_TEST_CARD, type TestCard, TestCardInputs } from '../../components/test-card-inputs.tsx';
import { loadPaymentConfig, loadPaymentProfile, removeCard, saveCard, setAutopay } from './autopay-api.ts';
import { formatCalendarDay, formatDollars } from './format.ts';

const StripeSaveCard = lazy(() => import('./stripe-save-card.tsx'));

const brandNames: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' };
const brandName = (brand: string) => brandNames[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1);

/** Autopay in the portal: the saved cards (brand, last 4, expiry), adding and removing one, and autopay on or off. */
export function AutopayPanel() {
  const [profile, setProfile] = useState<PaymentProfile | null>(null);
  const [config, setConfig] = useState<PaymentConfig | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    Promise.all([loadPaymentProfile(), loadPaymentConfig()])
      .then(([loaded, payments]) => {
        setProfile(loaded);
        setConfig(payments);
      })
      .catch((failure: Error) => setError(serverMessage(failure)));
  }, []);

  const act = useCallback(async (change: () => Promise<PaymentProfile>) => {
    setBusy(true);
    setError(null);
    try {
      setProfile(await change());
      return true;
    } catch (failure) {
      setError(serverMessage(failure as Error));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);

  if (!profile || !config) return error ? <p role="alert">{error}</p> : <p className="portal-empty">Loading…</p>;
  const hasCard = profile.cards.length > 0;
  // A charge that failed for good (or needs the renter) on a bill still unpaid: theirs to pay here.
  const toPay = profile.charges.filter((c) => c.status === 'failed' && c.invoiceOpen && c.nextAttemptOn === null);
  return (
    <div className="portal-autopay">
      {toPay.map((charge) => (
        <div key={charge.invoiceId} className="portal-card portal-card-alert" data-testid="autopay-failed">
          <h2>Autopay could not pay a bill</h2>
          <p>
            The charge of {formatDollars(charge.amount)} on {formatCalendarDay(charge.date)} did not go through: {charge.reason ?? 'declined'}
          </p>
          <Link href={`/checkout/${charge.invoiceId}`} className="button button-primary">
            Pay Now
          </Link>
        </div>
      ))}
      <div className="portal-card">
        <h2>Autopay</h2>
        <label className="portal-autopay-toggle">
          <input
            type="checkbox"
            role="switch"
            aria-checked={profile.autopay}
            aria-label="Autopay"
            checked={profile.autopay}
            disabled={busy || (!hasCard && !profile.autopay)}
            onChange={(event) => act(() => setAutopay(event.target.checked))}
          />{' '}
          Pay each bill automatically on its due date with my saved card
        </label>
        <p data-testid="autopay-status">{profile.autopay ? 'Autopay is on.' : hasCard ? 'Autopay is off.' : 'Save a card to turn autopay on.'}</p>
        {!profile.automaticCharging && <p className="portal-text-bad">Automatic charging is paused by the facility: your card is not charged for now.</p>}
      </div>
      {error && (
        <p className="portal-text-bad" role="alert">
          {error}
        </p>
      )}
      <div className="portal-card">
        <h2>Saved Cards</h2>
        {hasCard ? (
          <ul className="portal-cards">
            {profile.cards.map((card) => (
              <li key={card.id} data-testid="saved-card">
                <span>
                  {brandName(card.brand)} ending in {card.last4}, expires {String(card.expMonth).padStart(2, '0')}/{card.expYear}
                </span>
                {card.autopay && <span className="portal-badge portal-badge-good"> Autopay</span>}{' '}
                <button type="button" className="button button-secondary" disabled={busy} onClick={() => act(() => removeCard(card.id))}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="portal-empty">No saved card.</p>
        )}
      </div>
      <div className="portal-card">
        <h2>Add a Card</h2>
        {config.provider === 'stripe' && config.publishableKey ? (
          <Suspense fallback={<p className="portal-empty">Loading the card form…</p>}>
            <StripeSaveCard
              publishableKey={config.publishableKey}
              onFailed={setError}
              onSaved={async (setupIntentId) => {
                await act(() => saveCard({ setupIntentId }, !profile.autopay));
              }}
            />
          </Suspense>
        ) : (
          <TestCardFields busy={busy} onSave={(card, autopay) => act(() => saveCard(card, autopay))} />
        )}
      </div>
    </div>
  );
}

/** The built-in test provider's card fields (as its checkout's). */
function TestCardFields({ busy, onSave }: { busy: boolean; onSave: (card: TestCard, autopay: boolean) => Promise<boolean> }) {
  const [card, setCard] = useState(EMPTY_TEST_CARD);
  const [autopay, setAutopayChoice] = useState(true);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await onSave(card, autopay)) setCard(EMPTY_TEST_CARD);
  }
  return (
    <form className="checkout-card-form" onSubmit={submit}>
      <p className="checkout-test-note">
        Test cards: 4242 4242 4242 4242 is charged, 4000 0000 0000 0002 is declined, 4000 0025 0000 3155 needs you to confirm each payment.
      </p>
      <TestCardInputs card={card} onChange={setCard} />
      <label>
        <input type="checkbox" name="autopay" checked={autopay} onChange={(event) => setAutopayChoice(event.target.checked)} /> Use this card for autopay
      </label>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save Card'}
      </button>
    </form>
  );
}
