import { lazy, type ReactNode } from 'react';

const DashboardPage = lazy(() => import('../routes/dashboard.tsx'));
const CustomersPage = lazy(() => import('../routes/customers.tsx'));
const ComingSoonPage = lazy(() => import('../routes/coming-soon.tsx'));

export const staffRoutes: ReadonlyArray<{ path: string; screen: ReactNode }> = [
  { path: '/', screen: <DashboardPage /> },
  { path: '/customers', screen: <CustomersPage /> },
  { path: '/units', screen: <ComingSoonPage title="Units" /> },
  { path: '/leases', screen: <ComingSoonPage title="Lease Agreements" /> },
  { path: '/locks', screen: <ComingSoonPage title="Smart Locks" /> },
  { path: '/billing', screen: <ComingSoonPage title="Billing & Invoices" /> },
  { path: '/activities', screen: <ComingSoonPage title="Recent Activity" /> },
  { path: '/reports', screen: <ComingSoonPage title="Reports" /> },
  { path: '/settings', screen: <ComingSoonPage title="Settings" /> },
  { path: '/audit', screen: <ComingSoonPage title="Audit Log" /> },
];

/** Matches exactly the staff paths, so the staff area (and its session check) stays mounted across them. */
export const staffPathPattern = new RegExp(`^(?:${staffRoutes.map((route) => route.path).join('|')})$`);
