import { serverMessage } from '@storage/web-client/api';
import { Button } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import { FullScreenSpinner } from '../../../components/full-screen-spinner.tsx';
import { OnDemandResult } from '../../../components/on-demand.tsx';
import { isUnauthorizedError } from '../../../lib/unauthorized.ts';
import { useAuthUser } from '../api/get-auth-user.ts';

// Loaded only for the member who must set two-factor sign-in up: the setup's form, QR code and
// contracts stay out of every other screen's first load.
const TwoFactorSetupPage = lazy(() => import('./two-factor-setup-page.tsx').then((m) => ({ default: m.TwoFactorSetupPage })));

/**
 * Staff screens render only for a signed-in user; a 401 is handled by the query client (log in
 * again). A member who must set up two-factor sign-in first sees only its setup.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const { data: user, error, refetch, isFetching } = useAuthUser();
  if (user)
    return user.twoFactorSetupRequired ? (
      <Suspense fallback={<FullScreenSpinner />}>
        <TwoFactorSetupPage />
      </Suspense>
    ) : (
      children
    );
  if (error && !isUnauthorizedError(error)) {
    return (
      <OnDemandResult
        status="error"
        title="Could not check your session"
        subTitle={serverMessage(error)}
        extra={
          <Button type="primary" loading={isFetching} onClick={() => refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  return <FullScreenSpinner />;
}
