import type { SubmittedReservation } from '@storage/contracts/public';
import { serverMessage } from '@storage/web-client/api';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import { TestCardForm } from '../../features/checkout/test-card-form.tsx';
import { formatCalendarDay } from '../../features/portal/format.ts';
import { FinishRental, type RentalCardForm } from '../../features/rent-now/finish-rental.tsx';
import { confirmReservation } from '../../features/rent-now/reservations-api.ts';

const StripeCardForm = lazy(() => import('../../features/checkout/stripe-card-form.tsx'));

/** The checkout's card forms, for a rental's payment: Stripe's, or the test provider's confirmed by the link. */
const rentalCardForm: RentalCardForm = ({ provider, publishableKey, confirmTest, ...form }) =>
  provider === 'stripe' && publishableKey ? (
    <Suspense fallback={null}>
      <StripeCardForm {...form} publishableKey={publishableKey} />
    </Suspense>
  ) : (
    <TestCardForm {...form} confirm={confirmTest} />
  );

type Outcome = { kind: 'confirmed'; reservation: SubmittedReservation; token: string } | { kind: 'failed'; message: string };

/**
 * Where the mailed link lands: it confirms the reservation once (the link's token leaves the
 * address bar at once, so it is in no history entry or Referer), then says so.
 */
export default function ConfirmReservationPage() {
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('token');
    window.history.replaceState(null, '', window.location.pathname);
    if (!token) {
      setOutcome({ kind: 'failed', message: 'This link does not confirm any reservation. Please check the link in your email.' });
      return;
    }
    let current = true;
    confirmReservation({ token }).then(
      (reservation) => current && setOutcome({ kind: 'confirmed', reservation, token }),
      (error: Error) => current && setOutcome({ kind: 'failed', message: serverMessage(error) || 'Please try again or call us directly.' }),
    );
    return () => {
      current = false;
    };
  }, []);

  return (
    <>
      <SiteHeader />
      <main className="container checkout-page">
        <section className="checkout-card payment-result" aria-busy={!outcome}>
          {!outcome ? (
            <div className="checkout-spinner" role="status" aria-label="Confirming your reservation">
              <span className="checkout-spinner-mark" />
            </div>
          ) : outcome.kind === 'confirmed' ? (
            <>
              <h1 className="payment-result-title payment-result-good">Reservation Confirmed</h1>
              <p>The unit is held for you, moving in on {formatCalendarDay(outcome.reservation.moveInDate)}.</p>
              <FinishRental token={outcome.token} cardForm={rentalCardForm} />
            </>
          ) : (
            <>
              <h1 className="payment-result-title payment-result-bad">Reservation Not Confirmed</h1>
              <p>{outcome.message}</p>
            </>
          )}
          <Link href="/available-units" className="button button-secondary">
            Available Units
          </Link>
        </section>
      </main>
      <SiteFooter />
    </>
  );
}
