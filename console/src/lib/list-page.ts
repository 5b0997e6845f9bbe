import { type ListPageInfo, type ListTotal, MAX_SKIP, pageInfoOf } from '@storage/contracts/page-info';
import { ApiError, apiRequest } from '@storage/web-client/api';

// How the console asks for a page of a list (the paging contract, contracts/src/paging.ts). Each
// answer's cursors (x-next-cursor, x-prev-cursor) are kept, so a page near one shown (the next,
// the previous, any page the pagination offers around it) is asked for with the nearest of them
// and `skip` whole pages: the server reads it from an index rather than skipping every row before
// it. A page whose URL carries the cursor it was reached by (list-state.ts) is read by it again
// (a reload, a shared link). Only a page with no cursor near it (a number typed into the URL,
// the first page, the last ones, which the server reads from the end) is asked for by number.

/** A position in a list as the URL keeps it: the cursor a page was reached by, and the whole pages passed over from it. */
export type ReachedBy = { cursor: string; skip: number };

/**
 * Which page to read: its number, or (from list-state.ts) its number with the position it was
 * reached by and the list on screen it is shown in (whose jumps `positionFor` works out).
 */
export type PageAt = number | { page: number; reachedBy?: ReachedBy | undefined; shownIn?: string | undefined };

/**
 * The cursors a list's answers gave, by the page each reads with no skip: `after` read forward
 * (the next cursor of the page before: page P + k is `skip=k` from it), `before` read backward
 * (the previous cursor of the page after: page P - k is `skip=k` from it).
 */
type KnownCursors = { after: Map<number, string>; before: Map<number, string> };

/** Cursors by list (its path and query); the lists seen last are kept. */
const cursors = new Map<string, KnownCursors>();
const KEPT_LISTS = 50;
/** The list (path and query) each list on screen showed last, for its pagination's jumps. */
const shownLists = new Map<string, string>();

function remember(list: string, page: number, info: ListPageInfo) {
  const known = cursors.get(list) ?? { after: new Map<number, string>(), before: new Map<number, string>() };
  cursors.delete(list);
  cursors.set(list, known);
  if (info.nextCursor) known.after.set(page + 1, info.nextCursor);
  if (info.prevCursor && page > 1) known.before.set(page - 1, info.prevCursor);
  while (cursors.size > KEPT_LISTS) cursors.delete(cursors.keys().next().value!);
}

/** The cursor nearest the page among those kept, and the whole pages to pass over from it; none within MAX_SKIP (or page 1): by number. */
function nearest(list: string | undefined, page: number): ReachedBy | undefined {
  const known = list === undefined ? undefined : cursors.get(list);
  if (!known || page === 1) return undefined;
  let best: ReachedBy | undefined;
  const consider = (cursor: string, skip: number) => {
    if (skip >= 0 && skip <= MAX_SKIP && (!best || skip < best.skip)) best = { cursor, skip };
  };
  for (const [from, cursor] of known.after) consider(cursor, page - from);
  for (const [from, cursor] of known.before) consider(cursor, from - page);
  return best;
}

/** How the console reaches a page of a list on screen (`shownIn`, as list-state names it) from the pages it has shown: the position to keep in the URL, if any. */
export function positionFor(shownIn: string, page: number): ReachedBy | undefined {
  return nearest(shownLists.get(shownIn), page);
}

/**
 * One page of a list: its rows and how many the list holds (exactly, about, or at least). A list
 * answers its page as a JSON array, or inside an object that also carries figures of the whole list
 * (`rowsOf` picks the rows; the object is `body`).
 */
export async function fetchListPage<Row, Body = Row[]>(
  path: string,
  params: URLSearchParams,
  at: PageAt,
  rowsOf: (body: Body) => Row[] = (body) => body as Row[],
): Promise<{ rows: Row[]; total: ListTotal; body: Body }> {
  const { page, reachedBy, shownIn } = typeof at === 'number' ? { page: at, reachedBy: undefined, shownIn: undefined } : at;
  const list = `${path}?${params}`;
  const ask = (position: ReachedBy | undefined) => {
    const query = new URLSearchParams(params);
    query.set('page', String(page));
    if (position) query.set('cursor', position.cursor);
    if (position?.skip) query.set('skip', String(position.skip));
    return apiRequest('GET', `${path}?${query}`);
  };
  const position = reachedBy ?? nearest(list, page);
  let response: Response;
  try {
    response = await ask(position);
  } catch (error) {
    // A cursor the list no longer reads (a link from before its order changed, one edited by hand): the page by its number.
    if (!(position && error instanceof ApiError && error.status === 400 && ['cursor', 'skip'].includes(fieldOf(error.body)))) throw error;
    response = await ask(undefined);
  }
  const body: Body = await response.json();
  const rows = rowsOf(body);
  const info = pageInfoOf(response.headers, rows.length);
  remember(list, page, info);
  if (shownIn !== undefined) shownLists.set(shownIn, list);
  return { rows, total: info.total, body };
}

/** The field a 400's body names, if any. */
function fieldOf(body: string): string {
  try {
    return String(JSON.parse(body).field ?? '');
  } catch {
    return '';
  }
}

/** No rows yet. */
export const NO_TOTAL: ListTotal = { count: 0, kind: 'exact' };
