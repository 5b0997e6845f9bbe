import './styles.css';
import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { LandingPage } from './routes/landing.tsx';

const AvailableUnitsPage = lazy(() => import('./routes/available-units.tsx'));
const RentNowPage = lazy(() => import('./routes/rent-now.tsx'));
const CustomerPortalPage = lazy(() => import('./routes/customer-portal.tsx'));
const CheckoutPage = lazy(() => import('./routes/checkout.tsx'));
const PaymentSuccessPage = lazy(() => import('./routes/payment-success.tsx'));
const NotFoundPage = lazy(() => import('./routes/not-found.tsx'));

export function App() {
  return (
    <Suspense fallback={<div className="page-loading" role="status" aria-label="Loading" />}>
      <Switch>
        <Route path="/" component={LandingPage} />
        <Route path="/available-units" component={AvailableUnitsPage} />
        <Route path="/rent-now" component={RentNowPage} />
        <Route path="/customer-portal" component={CustomerPortalPage} />
        <Route path="/checkout/:invoiceId?" component={CheckoutPage} />
        <Route path="/payment-success" component={PaymentSuccessPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
