import { serverMessage } from '@storage/web-client/api';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { FullScreenSpinner } from '../../../components/full-screen-spinner.tsx';
import { OnDemandResult } from '../../../components/on-demand.tsx';
import { isUnauthorizedError } from '../../../lib/unauthorized.ts';
import { useAuthUser } from '../api/get-auth-user.ts';

/** Staff screens render only for a signed-in user; a 401 is handled by the query client (log in again). */
export function AuthGate({ children }: { children: ReactNode }) {
  const { data: user, error, refetch, isFetching } = useAuthUser();
  if (user) return children;
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
