import { lazy, type ReactNode } from 'react';

const DashboardPage = lazy(() => import('../routes/dashboard.tsx'));
const CustomersPage = lazy(() => import('../routes/customers.tsx'));
const UnitsPage = lazy(() => import('../routes/units.tsx'));
const LeasesPage = lazy(() => import('../routes/leases.tsx'));
const LocksPage = lazy(() => import('../routes/locks.tsx'));
const BillingPage = lazy(() => import('../routes/billing.tsx'));
const ActivitiesPage = lazy(() => import('../routes/activities.tsx'));
const ReportsPage = lazy(() => import('../routes/reports.tsx'));
const SettingsPage = lazy(() => import('../routes/settings.tsx'));
const AuditPage = lazy(() => import('../routes/audit.tsx'));

export const staffRoutes: ReadonlyArray<{ path: string; screen: ReactNode }> = [
  { path: '/', screen: <DashboardPage /> },
  { path: '/customers', screen: <CustomersPage /> },
  { path: '/units', screen: <UnitsPage /> },
  { path: '/leases', screen: <LeasesPage /> },
  { path: '/locks', screen: <LocksPage /> },
  { path: '/billing', screen: <BillingPage /> },
  { path: '/activities', screen: <ActivitiesPage /> },
  { path: '/reports', screen: <ReportsPage /> },
  { path: '/settings', screen: <SettingsPage /> },
  { path: '/audit', screen: <AuditPage /> },
];

/** Matches exactly the staff paths, so the staff area (and its session check) stays mounted across them. */
export const staffPathPattern = new RegExp(`^(?:${staffRoutes.map((route) => route.path).join('|')})$`);
