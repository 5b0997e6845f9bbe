import './styles.css';
import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { LandingPage } from './routes/landing.tsx';

const ComingSoonPage = lazy(() => import('./routes/coming-soon.tsx'));
const NotFoundPage = lazy(() => import('./routes/not-found.tsx'));

/** The public pages a later release builds; until then each names itself and links home. */
const plannedPages = [
  { path: '/customer-portal', title: 'Customer Portal' },
  { path: '/checkout/:invoiceId?', title: 'Checkout' },
  { path: '/payment-success', title: 'Payment Confirmation' },
  { path: '/available-units', title: 'Available Units' },
  { path: '/rent-now', title: 'Rent a Unit' },
];

export function App() {
  return (
    <Suspense fallback={<div className="page-loading" role="status" aria-label="Loading" />}>
      <Switch>
        <Route path="/" component={LandingPage} />
        {plannedPages.map(({ path, title }) => (
          <Route key={path} path={path}>
            <ComingSoonPage title={title} />
          </Route>
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
