import type { ConsolePage } from '@storage/contracts/pages';
import { lazy, type ReactNode } from 'react';

const DashboardPage = lazy(() => import('../routes/dashboard.tsx'));
const CustomersPage = lazy(() => import('../routes/customers.tsx'));
const CustomerPage = lazy(() => import('../routes/customer.tsx'));
const UnitsPage = lazy(() => import('../routes/units.tsx'));
const LeasesPage = lazy(() => import('../routes/leases.tsx'));
const LocksPage = lazy(() => import('../routes/locks.tsx'));
const BillingPage = lazy(() => import('../routes/billing.tsx'));
const ActivitiesPage = lazy(() => import('../routes/activities.tsx'));
const ReportsPage = lazy(() => import('../routes/reports.tsx'));
const SettingsPage = lazy(() => import('../routes/settings.tsx'));
const AuditPage = lazy(() => import('../routes/audit.tsx'));
const MessagesPage = lazy(() => import('../routes/messages.tsx'));

const screens: Record<Exclude<ConsolePage, '/login'>, ReactNode> = {
  '/': <DashboardPage />,
  '/customers': <CustomersPage />,
  '/customers/:customerId': <CustomerPage />,
  '/units': <UnitsPage />,
  '/leases': <LeasesPage />,
  '/locks': <LocksPage />,
  '/billing': <BillingPage />,
  '/activities': <ActivitiesPage />,
  '/reports': <ReportsPage />,
  '/settings': <SettingsPage />,
  '/audit': <AuditPage />,
  '/messages': <MessagesPage />,
};

/** The staff screens, one per page of the console's page list (which the server answers 404 outside of). */
export const staffRoutes: ReadonlyArray<{ path: string; screen: ReactNode }> = Object.entries(screens).map(([path, screen]) => ({ path, screen }));

/** Matches exactly the staff paths, so the staff area (and its session check) stays mounted across them. */
export const staffPathPattern = new RegExp(`^(?:${staffRoutes.map((route) => route.path.replace(/:[^/]+/g, '[^/]+')).join('|')})$`);
