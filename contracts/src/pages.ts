/**
 * The pages each web app shows, as wouter path patterns. The server answers every other path
 * with HTTP 404 (still sending the app, whose not-found page then shows), and each app's router
 * is built from the same list, so a page cannot exist on one side only.
 */
export const CONSOLE_PAGES = [
  '/login',
  '/',
  '/customers',
  '/customers/:customerId',
  '/units',
  '/leases',
  '/locks',
  '/billing',
  '/activities',
  '/reports',
  '/settings',
  '/audit',
  '/messages',
] as const;
export type ConsolePage = (typeof CONSOLE_PAGES)[number];

export const PORTAL_PAGES = [
  '/',
  '/available-units',
  '/rent-now',
  '/reservations/confirm',
  '/customer-portal',
  '/checkout',
  '/checkout/:invoiceId',
  '/payment-success',
] as const;
export type PortalPage = (typeof PORTAL_PAGES)[number];

/** Whether `path` (no query string) matches one of the patterns: `:name` stands for one non-empty segment. */
export function isPage(patterns: readonly string[], path: string): boolean {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return patterns.some((pattern) => {
    const expected = pattern.split('/');
    const actual = normalized.split('/');
    return expected.length === actual.length && expected.every((part, i) => (part.startsWith(':') ? actual[i]!.length > 0 : part === actual[i]));
  });
}
