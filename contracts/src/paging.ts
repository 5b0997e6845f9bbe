import { z } from 'zod';
import { CURSOR_PATTERN, MAX_CURSOR_LENGTH, MAX_SKIP } from './page-info.ts';

// How every staff list is paged (the spec's lists answer a JSON array; the paging is in the query
// and the headers):
//
// - `page` and `pageSize` as before; the console keeps `page` in its URL.
// - `cursor` (optional, opaque): where the page starts, taken from the `x-next-cursor` or
//   `x-prev-cursor` of the page next to it. It holds the sort-key values of the row at the page's
//   boundary and the direction, so the next page is read from an index after that row (keyset
//   paging) rather than by skipping `(page - 1) * pageSize` rows. A cursor the list cannot read
//   (not one it wrote, or written for another order) is a 400 naming `cursor`. With a cursor,
//   `page` only says which page number the caller is on; the cursor decides the rows.
// - `skip` (optional, with a cursor only, 0 to MAX_SKIP): whole pages to pass over from the
//   cursor in its direction before the page, so a jump to a page near one shown (the pages a
//   pagination offers around it) is read from that page's cursor plus a small offset rather than
//   counted from the start: page P + 1 + k is `x-next-cursor` of page P with `skip=k`, page
//   P - 1 - k its `x-prev-cursor` with `skip=k`. Without a cursor it is a 400 naming `skip`.
// - Without a cursor a page is read by its number (OFFSET where that is cheap; the last pages are
//   read from the end in reverse order).
// - `x-total-count`: how many match. Counting a large set would scan it, so a total may be
//   `x-total-estimated: true` (the planner's estimate: "about 64,800") or `x-total-capped: true`
//   (at least that many: "10,000+"). Without either header the count is exact.
// - `x-next-cursor` / `x-prev-cursor`: present when there is a page after / before this one.

export const Page = z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100_000).default(1);
export const PageSize = z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(200, 'must be at most 200').default(50);
/** An opaque position in a list, as the API wrote it (base64url). */
export const Cursor = z
  .string()
  .max(MAX_CURSOR_LENGTH, `must be at most ${MAX_CURSOR_LENGTH} characters`)
  .regex(CURSOR_PATTERN, 'must be a cursor the list answered (x-next-cursor or x-prev-cursor)')
  .optional();

/** Whole pages passed over from the cursor (see above); read with a cursor only. */
export const Skip = z.coerce.number().int('must be a whole number').min(0, 'must be at least 0').max(MAX_SKIP, `must be at most ${MAX_SKIP}`).optional();

/** The paging fields of every list's query. */
export const pagingFields = { page: Page, pageSize: PageSize, cursor: Cursor, skip: Skip };
export type Paging = { page: number; pageSize: number; cursor?: string | undefined; skip?: number | undefined };

export * from './page-info.ts';
