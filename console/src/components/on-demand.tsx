import type { AlertProps, DrawerProps, PaginationProps, ResultProps } from 'antd';
import { lazy, Suspense, useState } from 'react';

// Components whose code is fetched when they are first shown, not with the screen that may show
// them: the console's first signed-in route (the dashboard and its shell) has a byte budget
// (`npm run bench:landing`: 300 KB as sent), and these are rarely shown there. Each import() names
// a module of its own (./on-demand/), so each one is a chunk of its own; nothing shows in a
// component's place while it is fetched.

/**
 * Whether a dialog (or drawer) has been open yet: render a lazily loaded one only from its first
 * opening on (its code is fetched then), and keep it mounted after, so it closes and reopens as
 * it did before.
 */
export function useOpenedOnce(open: boolean | undefined): boolean {
  const [opened, setOpened] = useState(Boolean(open));
  if (open && !opened) setOpened(true);
  return opened || Boolean(open);
}

const Drawer = lazy(() => import('./on-demand/antd-drawer.ts').then((m) => ({ default: m.Drawer })));

/** antd's Drawer, fetched the first time it opens (the shell's navigation drawer opens only on a narrow screen). */
export function OnDemandDrawer(props: DrawerProps) {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <Drawer {...props} />
    </Suspense>
  );
}

const Result = lazy(() => import('./on-demand/antd-result.ts').then((m) => ({ default: m.Result })));

/** antd's Result: it holds the 403/404/500 illustrations (about 10 KB compressed), and on most screens it shows only when something failed. */
export function OnDemandResult(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <Result {...props} />
    </Suspense>
  );
}

const Alert = lazy(() => import('./on-demand/antd-alert.ts').then((m) => ({ default: m.Alert })));

/** antd's Alert, for notices a screen shows only sometimes (the dashboard's empty business profile). */
export function OnDemandAlert(props: AlertProps) {
  return (
    <Suspense fallback={null}>
      <Alert {...props} />
    </Suspense>
  );
}

const Pagination = lazy(() => import('./on-demand/antd-pagination.ts').then((m) => ({ default: m.Pagination })));

/** antd's Pagination: a list shows it only once it has more than one page. */
export function OnDemandPagination(props: PaginationProps) {
  return (
    <Suspense fallback={null}>
      <Pagination {...props} />
    </Suspense>
  );
}
