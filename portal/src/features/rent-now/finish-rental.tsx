import type { LeaseToSign, SignLeaseRequest } from '@storage/contracts/lease-signatures';
import { formatDollars } from '@storage/contracts/money';
import type { RentalCheckout, RentalOffer, RentalStatus } from '@storage/contracts/online-rentals';
import type { ConfirmTestPaymentRequest, ConfirmTestPaymentResponse } from '@storage/contracts/payments';
import { offeredPromotionLabel } from '@storage/contracts/promotions';
import { serverMessage } from '@storage/web-client/api';
import { type ReactNode, useEffect, useState } from 'react';
import { formatCalendarDay } from '../portal/format.ts';
import { SignLeaseDialog } from '../portal/lease-signing.tsx';
import {
  completeRental,
  confirmRentalTestPayment,
  loadRentalOffer,
  rentalAgreement,
  rentalStatus,
  signRentalLease,
  startRentalCheckout,
} from './rentals-api.ts';

/** The card form of the provider the payment is with (composed by the page: the checkout's forms). */
export type RentalCardForm = (props: {
  provider: 'test' | 'stripe';
  publishableKey: string | null;
  amount: string;
  paymentIntentId: string;
  clientSecret: string;
  returnUrl: string;
  /** The test provider's card, confirmed by the link's token (no portal session yet). */
  confirmTest: (paymentIntentId: string, card: ConfirmTestPaymentRequest) => Promise<ConfirmTestPaymentResponse>;
  onFailed(message: string): void;
  onSucceeded(paymentIntentId: string): void;
}) => ReactNode;

type Choices = { protectionPlanId: string | null; promotionId: string | null };
type Stage =
  | { kind: 'choosing' }
  /** Reading and signing the agreement the choices make. */
  | { kind: 'signing'; toSign: LeaseToSign }
  | { kind: 'paying'; checkout: Extract<RentalCheckout, { kind: 'pay' }> }
  | { kind: 'finishing' }
  | { kind: 'done'; status: RentalStatus };

/** How long the confirmation waits for the gate code the move-in assigns a moment after it. */
const GATE_CODE_WAIT_MS = 20_000;

/**
 * Finishing an online reservation now: a protection plan and a promotion, what is due today line
 * by line, the agreement those choices make read and signed, the card payment, and the gate code
 * once the payment moved the renter in.
 */
export function FinishRental({ token, cardForm }: { token: string; cardForm: RentalCardForm }) {
  const [choices, setChoices] = useState<Choices>({ protectionPlanId: null, promotionId: null });
  const [offer, setOffer] = useState<RentalOffer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'choosing' });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    loadRentalOffer({ token, ...choices }).then(
      (answer) => {
        if (!current) return;
        setOffer(answer);
        setError(null);
      },
      (failure: Error) => current && setError(serverMessage(failure) || 'Please try again or call us directly.'),
    );
    return () => {
      current = false;
    };
  }, [token, choices]);

  // The gate code comes a moment after the move-in: asked again until it is there.
  useEffect(() => {
    if (stage.kind !== 'done' || stage.status.status !== 'rented' || !stage.status.signed || stage.status.gateCode) return;
    const until = Date.now() + GATE_CODE_WAIT_MS;
    let current = true;
    const ask = async () => {
      const status = await rentalStatus(token).catch(() => null);
      if (!current) return;
      if (status?.gateCode) setStage({ kind: 'done', status });
      else if (Date.now() < until) setTimeout(ask, 1000);
    };
    const timer = setTimeout(ask, 1000);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [stage, token]);

  /** The agreement these choices make, to read and sign before paying. */
  async function openAgreement() {
    setBusy(true);
    setError(null);
    try {
      setStage({ kind: 'signing', toSign: await rentalAgreement({ token, ...choices }) });
    } catch (failure) {
      setError(serverMessage(failure as Error) || 'Please try again or call us directly.');
    } finally {
      setBusy(false);
    }
  }

  /** Signs and starts the payment in one request: the server records the signature with the payment it is for. */
  async function signAndCheckout(signature: SignLeaseRequest & { documentSha256: string }) {
    const checkout = await startRentalCheckout({ token, ...choices, signature });
    if (checkout.kind === 'pay') setStage({ kind: 'paying', checkout });
    else setStage({ kind: 'done', status: await rentalStatus(token) });
  }

  async function paid(paymentIntentId: string) {
    setStage({ kind: 'finishing' });
    try {
      setStage({ kind: 'done', status: await completeRental(token, paymentIntentId) });
    } catch (failure) {
      setError(serverMessage(failure as Error) || 'Your payment went through; we are finishing your rental. Please check your email.');
      setStage({ kind: 'choosing' });
    }
  }

  if (stage.kind === 'done') return <RentalDone status={stage.status} token={token} onChanged={(status) => setStage({ kind: 'done', status })} />;
  if (stage.kind === 'finishing') {
    return (
      <div className="checkout-spinner" role="status" aria-label="Finishing your rental">
        <span className="checkout-spinner-mark" />
      </div>
    );
  }

  const quote = offer?.quote;
  return (
    <section className="finish-rental" aria-labelledby="finish-rental-title">
      <h2 id="finish-rental-title">Finish Your Rental Now</h2>
      <p>Sign your lease and pay online, and get your gate code right away: no visit to the office needed.</p>
      {error && (
        <p className="form-notice form-notice-bad" role="alert">
          {error}
        </p>
      )}
      {quote && (
        <>
          {quote.offers.plans.length > 0 && (
            <fieldset className="finish-rental-choices" disabled={stage.kind === 'paying'}>
              <legend>Protection Plan</legend>
              <label>
                <input
                  type="radio"
                  name="plan"
                  checked={choices.protectionPlanId === null}
                  onChange={() => setChoices({ ...choices, protectionPlanId: null })}
                />
                No protection plan (I have my own insurance)
              </label>
              {quote.offers.plans.map((plan) => (
                <label key={plan.planId}>
                  <input
                    type="radio"
                    name="plan"
                    checked={choices.protectionPlanId === plan.planId}
                    onChange={() => setChoices({ ...choices, protectionPlanId: plan.planId })}
                  />
                  {plan.name}: {formatDollars(plan.coverageAmount)} coverage, {formatDollars(plan.monthlyPremium)} a month
                </label>
              ))}
            </fieldset>
          )}
          {quote.offers.promotions.length > 0 && (
            <fieldset className="finish-rental-choices" disabled={stage.kind === 'paying'}>
              <legend>Promotion</legend>
              <label>
                <input type="radio" name="promotion" checked={choices.promotionId === null} onChange={() => setChoices({ ...choices, promotionId: null })} />
                No promotion
              </label>
              {quote.offers.promotions.map((promotion) => (
                <label key={promotion.promotionId}>
                  <input
                    type="radio"
                    name="promotion"
                    checked={choices.promotionId === promotion.promotionId}
                    onChange={() => setChoices({ ...choices, promotionId: promotion.promotionId })}
                  />
                  {offeredPromotionLabel(promotion)}
                </label>
              ))}
            </fieldset>
          )}
          <table className="finish-rental-lines" aria-label="Due today">
            <tbody>
              {quote.dueToday.flatMap((invoice) =>
                invoice.lines.map((line, index) => (
                  // Lines of one invoice in billing's order; a line's place is its identity.
                  // biome-ignore lint/suspicious/noArrayIndexKey: the lines have no id of their own
                  <tr key={`${invoice.periodStart}-${index}`}>
                    <td>{line.description}</td>
                    <td className="amount">{formatDollars(line.amount)}</td>
                  </tr>
                )),
              )}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Due today</th>
                <td className="amount">{formatDollars(quote.totalDueToday)}</td>
              </tr>
            </tfoot>
          </table>
          {quote.nextInvoice && (
            <p className="finish-rental-next">
              Then {formatDollars(quote.nextInvoice.total)} due {formatCalendarDay(quote.nextInvoice.dueDate)}.
            </p>
          )}
          {stage.kind === 'choosing' || stage.kind === 'signing' ? (
            <>
              <button type="button" className="button button-primary button-large" onClick={openAgreement} disabled={busy}>
                {busy ? 'Processing...' : 'Review and Sign Your Lease'}
              </button>
              <p>Or finish at the office: we will contact you within 24 hours to complete the setup.</p>
              {stage.kind === 'signing' && (
                <SignLeaseDialog
                  toSign={stage.toSign}
                  sign={({ documentSha256, ...signature }) => signAndCheckout({ ...signature, documentSha256: documentSha256 ?? stage.toSign.documentSha256 })}
                  onChanged={openAgreement}
                  onSigned={() => undefined}
                  onClose={() => setStage({ kind: 'choosing' })}
                />
              )}
            </>
          ) : (
            <>
              <p className="finish-rental-signed" role="status">
                Lease signed. Pay {formatDollars(stage.checkout.amount)} to finish your rental.
              </p>
              {cardForm({
                ...stage.checkout,
                returnUrl: window.location.href,
                onFailed: setError,
                onSucceeded: paid,
                confirmTest: (intentId, card) => confirmRentalTestPayment(token, intentId, card),
              })}
            </>
          )}
        </>
      )}
    </section>
  );
}

function RentalDone({ status, token, onChanged }: { status: RentalStatus; token: string; onChanged: (status: RentalStatus) => void }) {
  const [toSign, setToSign] = useState<LeaseToSign | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { unit } = status;
  const place = `${unit.unitNumber}, Building ${unit.building}${unit.facilityName ? `, ${unit.facilityName}` : ''}`;
  if (status.status !== 'rented') {
    return (
      <section className="finish-rental">
        <h2 className="payment-result-bad">Rental Not Completed</h2>
        <p>{status.message}</p>
      </section>
    );
  }

  async function openAgreement() {
    setProblem(null);
    try {
      setToSign(await rentalAgreement({ token }));
    } catch (error) {
      setProblem(serverMessage(error as Error) || 'Please try again in a moment.');
    }
  }

  async function refresh() {
    onChanged(await rentalStatus(token));
  }

  return (
    <section className="finish-rental">
      <h2 className="payment-result-good">Your Unit Is Rented</h2>
      <p>
        Unit {place}, from {formatCalendarDay(status.moveInDate)}.
      </p>
      {!status.signed ? (
        <>
          <p>One last step: read and sign your lease agreement to get your gate code.</p>
          {problem && (
            <p className="form-notice form-notice-bad" role="alert">
              {problem}
            </p>
          )}
          <button type="button" className="button button-primary button-large" onClick={openAgreement}>
            Review and Sign Your Lease
          </button>
          {toSign && (
            <SignLeaseDialog
              toSign={toSign}
              sign={(request) => signRentalLease(token, request)}
              onChanged={openAgreement}
              onSigned={() => {
                setToSign(null);
                void refresh();
              }}
              onClose={() => setToSign(null)}
            />
          )}
        </>
      ) : status.gateCode ? (
        <p className="finish-rental-gate">
          Gate code: <strong>{status.gateCode}</strong>
        </p>
      ) : (
        <p role="status">Your gate code is on its way…</p>
      )}
      {status.signed && <p data-testid="rental-access-hours">Access hours: {status.accessHours}</p>}
      <p>We have emailed your gate code to you as well. Sign in to the customer portal to see your bills and download your signed lease.</p>
    </section>
  );
}
