import { type ListPageInfo, type ListTotal, pageInfoOf } from '@storage/contracts/page-info';
import { apiRequest } from '@storage/web-client/api';

// How the console asks for a page of a list (the paging contract, contracts/src/paging.ts): the
// page next to one it has shown is asked for with that page's cursor (x-next-cursor or
// x-prev-cursor), so the server reads it from an index rather than skipping every row before it;
// a page it has no cursor for (a link, a jump to a page number) by its number. The page number
// stays in the URL either way.

/** Cursors by list (its path and filters) and page number; the lists seen last are kept. */
const cursors = new Map<string, Map<number, string>>();
const KEPT_LISTS = 50;

function remember(list: string, page: number, info: ListPageInfo) {
  const pages = cursors.get(list) ?? new Map<number, string>();
  cursors.delete(list);
  cursors.set(list, pages);
  if (info.nextCursor) pages.set(page + 1, info.nextCursor);
  if (info.prevCursor && page > 1) pages.set(page - 1, info.prevCursor);
  while (cursors.size > KEPT_LISTS) cursors.delete(cursors.keys().next().value!);
}

/** One page of a list: its rows and how many the list holds (exactly, about, or at least). */
export async function fetchListPage<Row>(path: string, params: URLSearchParams, page: number): Promise<{ rows: Row[]; total: ListTotal }> {
  const list = `${path}?${params}`;
  const query = new URLSearchParams(params);
  query.set('page', String(page));
  const cursor = cursors.get(list)?.get(page);
  if (cursor) query.set('cursor', cursor);
  const response = await apiRequest('GET', `${path}?${query}`);
  const rows: Row[] = await response.json();
  const info = pageInfoOf(response.headers, rows.length);
  remember(list, page, info);
  return { rows, total: info.total };
}

/** No rows yet. */
export const NO_TOTAL: ListTotal = { count: 0, kind: 'exact' };
