import { QueryClientProvider } from '@tanstack/react-query';
import { App, ConfigProvider, type ThemeConfig } from 'antd';
import { type ReactNode, useState } from 'react';
import { createQueryClient } from '../lib/query-client.ts';
import { isUnauthorizedError, logInAgain } from '../lib/unauthorized.ts';

const theme: ThemeConfig = {
  token: { colorPrimary: '#1f5eff', borderRadius: 8 },
};

/** Spec §9: at most one toast at a time, shown for 5000 ms; tooltips wait 700 ms. */
const toastConfig = { maxCount: 1, duration: 5 };
const tooltipConfig = { mouseEnterDelay: 0.7 };

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider theme={theme} tooltip={tooltipConfig}>
      <App notification={toastConfig} message={toastConfig}>
        <QueryProvider>{children}</QueryProvider>
      </App>
    </ConfigProvider>
  );
}

function QueryProvider({ children }: { children: ReactNode }) {
  const { notification } = App.useApp();
  const [queryClient] = useState(() =>
    createQueryClient((error) => {
      if (isUnauthorizedError(error)) logInAgain(notification);
    }),
  );
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
