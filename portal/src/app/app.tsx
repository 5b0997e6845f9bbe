import './styles.css';
import type { PortalPage } from '@storage/contracts/pages';
import { type ComponentType, lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { LandingPage } from './routes/landing.tsx';

const AvailableUnitsPage = lazy(() => import('./routes/available-units.tsx'));
const RentNowPage = lazy(() => import('./routes/rent-now.tsx'));
const ConfirmReservationPage = lazy(() => import('./routes/confirm-reservation.tsx'));
const CustomerPortalPage = lazy(() => import('./routes/customer-portal.tsx'));
const CheckoutPage = lazy(() => import('./routes/checkout.tsx'));
const PaymentSuccessPage = lazy(() => import('./routes/payment-success.tsx'));
const NotFoundPage = lazy(() => import('./routes/not-found.tsx'));

/** One screen per page of the portal's page list (which the server answers 404 outside of). */
const screens: Record<PortalPage, ComponentType> = {
  '/': LandingPage,
  '/available-units': AvailableUnitsPage,
  '/rent-now': RentNowPage,
  '/reservations/confirm': ConfirmReservationPage,
  '/customer-portal': CustomerPortalPage,
  '/checkout': CheckoutPage,
  '/checkout/:invoiceId': CheckoutPage,
  '/payment-success': PaymentSuccessPage,
};
const pages = Object.entries(screens);

export function App() {
  return (
    <Suspense fallback={<div className="page-loading" role="status" aria-label="Loading" />}>
      <Switch>
        {pages.map(([path, Page]) => (
          <Route key={path} path={path} component={Page} />
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
