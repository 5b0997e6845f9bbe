import { isPage } from '@storage/contracts/pages';

/** Pages that send a signed-out renter to the gate and expect them back. */
const RETURN_PAGES = ['/checkout', '/checkout/:invoiceId'] as const;

/** The gate's address that brings the renter back to `path` once verified. */
export function gateThenBack(path: string): string {
  return `/customer-portal?next=${encodeURIComponent(path)}`;
}

/** Where to go after the gate: `next` when it is one of our return pages (never another site), else nowhere. */
export function returnPath(next: string | null): string | null {
  if (!next?.startsWith('/') || next.startsWith('//')) return null;
  const url = new URL(next, 'http://portal.invalid');
  if (url.origin !== 'http://portal.invalid' || !isPage(RETURN_PAGES, url.pathname)) return null;
  return url.pathname + url.search;
}
