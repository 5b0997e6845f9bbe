import { QueryClientProvider } from '@tanstack/react-query';
import { App, ConfigProvider, type ThemeConfig } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useReducedMotion } from '../hooks/use-reduced-motion.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { isUnauthorizedError, logInAgain } from '../lib/unauthorized.ts';

// Colours that meet WCAG AA contrast (4.5:1) on white and on the light card backgrounds: antd's
// default secondary text (45 % black), link blue and error red fall short of it (checked by axe-core
// in the browser tests). Under the pointer too: antd lightens a primary button or link on hover
// (#4782ff, 3.6:1 with white), so hover and press darken instead (6.7:1 and 7.7:1).
const theme: ThemeConfig = {
  token: {
    colorPrimary: '#1f5eff',
    colorPrimaryHover: '#1a4fd6',
    colorPrimaryActive: '#1747c2',
    colorLink: '#1f5eff',
    colorLinkHover: '#1a4fd6',
    colorLinkActive: '#1747c2',
    colorError: '#cf1322',
    colorErrorHover: '#a8071a',
    colorErrorActive: '#820014',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    borderRadius: 8,
  },
};

/** Spec §9: at most one toast at a time, shown for 5000 ms; tooltips wait 700 ms. */
const toastConfig = { maxCount: 1, duration: 5 };
const tooltipConfig = { mouseEnterDelay: 0.7 };

export function AppProvider({ children }: { children: ReactNode }) {
  // Dialogs, drawers, lists and toasts appear at once for whoever asked their system for less motion.
  const reduceMotion = useReducedMotion();
  const themed = useMemo<ThemeConfig>(() => ({ ...theme, token: { ...theme.token, motion: !reduceMotion } }), [reduceMotion]);
  return (
    <ConfigProvider theme={themed} tooltip={tooltipConfig}>
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
