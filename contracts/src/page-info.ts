// The paging of a list answer as both sides read it (headers, totals, how a total is said), free
// of zod: the console's first screens read it without loading the schema library. The query's
// fields are in paging.ts.

import { NEXT_CURSOR_HEADER, PREV_CURSOR_HEADER, TOTAL_CAPPED_HEADER, TOTAL_COUNT_HEADER, TOTAL_ESTIMATED_HEADER } from './headers.ts';

export { NEXT_CURSOR_HEADER, PREV_CURSOR_HEADER, TOTAL_CAPPED_HEADER, TOTAL_COUNT_HEADER, TOTAL_ESTIMATED_HEADER };

/** How many rows a count reads at most before the total is said as "at least" (or estimated). */
export const TOTAL_COUNT_CAP = 10_000;

/** What a list's `cursor` looks like (base64url, as the API writes it), and how long it may be. */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]+$/;
export const MAX_CURSOR_LENGTH = 4096;

/**
 * How many whole pages a list's `skip` passes over from a cursor at most: enough for every page a
 * pagination offers around the one shown (the "•••" jumps are 5 pages), small enough that the
 * offset from the cursor stays cheap (at most 20 pages of 200 rows).
 */
export const MAX_SKIP = 20;

/** How many match: exactly, about (the planner's estimate), or at least (a count that stopped). */
export type ListTotal = { count: number; kind: 'exact' | 'estimated' | 'atLeast' };

/** A page of a list as the client reads it off an answer. */
export type ListPageInfo = { total: ListTotal; nextCursor: string | null; prevCursor: string | null };

/** The paging headers of a list answer. */
export function pageHeaders(info: ListPageInfo): Record<string, string> {
  const headers: Record<string, string> = { [TOTAL_COUNT_HEADER]: String(info.total.count) };
  if (info.total.kind === 'estimated') headers[TOTAL_ESTIMATED_HEADER] = 'true';
  if (info.total.kind === 'atLeast') headers[TOTAL_CAPPED_HEADER] = 'true';
  if (info.nextCursor) headers[NEXT_CURSOR_HEADER] = info.nextCursor;
  if (info.prevCursor) headers[PREV_CURSOR_HEADER] = info.prevCursor;
  return headers;
}

/** The paging of a list answer, from its headers (`fallbackCount` when it has no total: the rows it holds). */
export function pageInfoOf(headers: { get(name: string): string | null }, fallbackCount: number): ListPageInfo {
  const count = Number(headers.get(TOTAL_COUNT_HEADER) ?? fallbackCount);
  const kind = headers.get(TOTAL_ESTIMATED_HEADER) === 'true' ? 'estimated' : headers.get(TOTAL_CAPPED_HEADER) === 'true' ? 'atLeast' : 'exact';
  return { total: { count, kind }, nextCursor: headers.get(NEXT_CURSOR_HEADER), prevCursor: headers.get(PREV_CURSOR_HEADER) };
}

/** A total as people read it: "64812" (an exact count, as the lists have always said it), "about 64,800", "10,000+". Never an estimate said as if exact. */
export function totalText(total: ListTotal, locale = 'en-US'): string {
  if (total.kind === 'exact') return String(total.count);
  if (total.kind === 'atLeast') return `${total.count.toLocaleString(locale)}+`;
  return `about ${roughly(total.count).toLocaleString(locale)}`;
}

/** An estimate to its first three digits (64,812 → 64,800), so it does not look counted. */
function roughly(n: number): number {
  if (n < 1000) return n;
  const unit = 10 ** (Math.floor(Math.log10(n)) - 2);
  return Math.round(n / unit) * unit;
}
