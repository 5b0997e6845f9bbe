import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { FullScreenSpinner } from '../components/full-screen-spinner.tsx';
import { staffPathPattern } from './staff/staff-routes.tsx';

const SignInPage = lazy(() => import('./routes/sign-in.tsx'));
const StaffArea = lazy(() => import('./staff/staff-area.tsx'));
const NotFoundPage = lazy(() => import('./routes/not-found.tsx'));

export function AppRouter() {
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <Switch>
        <Route path="/login" component={SignInPage} />
        <Route path={staffPathPattern} component={StaffArea} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
