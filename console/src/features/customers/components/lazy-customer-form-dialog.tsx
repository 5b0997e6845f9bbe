import { type ComponentProps, lazy, Suspense } from 'react';
import { useOpenedOnce } from '../../../components/on-demand.tsx';

const CustomerFormDialog = lazy(() => import('./customer-form-dialog.tsx').then((m) => ({ default: m.CustomerFormDialog })));

/**
 * The customer dialog for screens that only may open it (the dashboard): its form (antd's Form,
 * the contract's schemas) is fetched on the first opening, not with the screen.
 */
export function LazyCustomerFormDialog(props: ComponentProps<typeof CustomerFormDialog>) {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <CustomerFormDialog {...props} />
    </Suspense>
  );
}
