import { serverMessage } from '@storage/web-client/api';
import { App } from 'antd';
import { useMemo } from 'react';
import { isUnauthorizedError } from './unauthorized.ts';

/** The spec's 'Success' and destructive 'Error' toasts; a failure also says why, in the server's words. */
export function useToast() {
  const { notification } = App.useApp();
  return useMemo(() => {
    const success = (description: string) => notification.success({ title: 'Success', description });
    const failure = (description: string, error: Error) => {
      // The query client already answers a lost session with its own toast and a new login.
      if (isUnauthorizedError(error)) return;
      notification.error({
        title: 'Error',
        description: (
          <>
            <div>{description}</div>
            <div>{serverMessage(error)}</div>
          </>
        ),
      });
    };
    return {
      success,
      failure,
      /** The callbacks of a write: on success its toast and then `after` with the result, on failure the Error toast. */
      outcome: <Result,>(successText: string, failureText: string, after?: (result: Result) => void) => ({
        onSuccess: (result: Result) => {
          success(successText);
          after?.(result);
        },
        onError: (error: Error) => failure(failureText, error),
      }),
    };
  }, [notification]);
}
