import type { App } from 'antd';

type NotificationApi = ReturnType<typeof App.useApp>['notification'];

const LOGIN_REDIRECT_DELAY_MS = 500;

let loggingInAgain = false;

export function isUnauthorizedError(error: Error): boolean {
  return /^401: .*Unauthorized/.test(error.message);
}

/** Spec §8: tell the user once, then send the browser through the server login. */
export function logInAgain(notification: NotificationApi): void {
  if (loggingInAgain) return;
  loggingInAgain = true;
  notification.error({ title: 'Unauthorized', description: 'You are logged out. Logging in again...' });
  window.setTimeout(() => {
    window.location.href = '/api/login';
  }, LOGIN_REDIRECT_DELAY_MS);
}
