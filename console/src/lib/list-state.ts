import { sortOrders } from '@storage/contracts/enum-values';
import { CURSOR_PATTERN, MAX_CURSOR_LENGTH, MAX_SKIP } from '@storage/contracts/page-info';
import type { ListSorting, Sort } from '@storage/contracts/sorting';
import { useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { z } from 'zod';
import { useDebouncedValue } from '../hooks/use-debounced-value.ts';
import { type PageAt, positionFor, type ReachedBy } from './list-page.ts';

const SEARCH_DEBOUNCE_MS = 250;

/** A list's filters by URL parameter name: each read from the URL through its schema (e.g. a status enum). */
type FilterSchemas = Record<string, z.ZodType<string>>;
type FilterValues<Filters extends FilterSchemas> = { [Name in keyof Filters]: z.output<Filters[Name]> | null };

export interface ListState<Column extends string, Filters extends FilterSchemas = Record<never, never>> {
  sorting: ListSorting<Column>;
  /** The search box's text as typed; `search` is the term to ask the server for, once the typing pauses. */
  searchInput: string;
  search: string;
  setSearch(text: string): void;
  sort: Sort<Column>;
  /** null goes back to the list's default order. */
  setSort(sort: Sort<Column> | null): void;
  filters: FilterValues<Filters>;
  setFilter<Name extends keyof Filters & string>(name: Name, value: z.output<Filters[Name]> | null): void;
  /** Several filters at once, one step back for Back (those not named stay as they are). */
  setFilters(values: Partial<FilterValues<Filters>>): void;
  page: number;
  /** The page to read: its number, with the cursor it was reached by when the URL holds one (list-page.ts). */
  at: PageAt;
  setPage(page: number): void;
}

type Options<Column extends string, Filters extends FilterSchemas> = {
  sorting: ListSorting<Column>;
  filters?: Filters;
  /** Names this list's parameters (`waitlistSort`...), for a second list on one screen. */
  prefix?: string;
  /** What else scopes the list but lives outside the URL (the selected facility): a change starts again at page 1. */
  scope?: unknown;
};

const withPrefix = (prefix: string, name: string) => (prefix ? `${prefix}${name.charAt(0).toUpperCase()}${name.slice(1)}` : name);

function pageOf(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The position a page was reached by, as the URL holds it; none when it is not one the API could have written. */
function reachedByOf(cursor: string | null, skip: string | null): ReachedBy | undefined {
  const pages = skip === null ? 0 : Number(skip);
  if (!cursor || cursor.length > MAX_CURSOR_LENGTH || !CURSOR_PATTERN.test(cursor) || !Number.isInteger(pages) || pages < 0 || pages > MAX_SKIP)
    return undefined;
  return { cursor, skip: pages };
}

/**
 * A list's search, filters, sort and page, kept in the URL so a view can be reloaded or shared.
 * Typing replaces the current history entry; choosing a filter, a sort or a page adds one (Back
 * undoes it). Any change but the page starts again at page 1. Values the URL holds that the list
 * does not know are ignored (the list shows its default), and defaults are left out of the URL.
 * A page chosen near one shown also keeps in the URL the cursor it is read from (`cursor`, and
 * `skip` whole pages past it), so reloading or sharing a deep page reads it by keyset again; a
 * page number typed in without one is read by its number (counted from the start unless it is
 * near the end).
 */
export function useListState<Column extends string, Filters extends FilterSchemas = Record<never, never>>({
  sorting,
  filters: filterSchemas,
  prefix = '',
  scope,
}: Options<Column, Filters>): ListState<Column, Filters> {
  const params = new URLSearchParams(useSearch());
  const [location, navigate] = useLocation();
  const name = (key: string) => withPrefix(prefix, key);

  /** Changes parameters of the URL as it is now (another list on the screen may have just changed it too). */
  const update = (changes: Record<string, string | null>, { replace = false, keepPage = false } = {}) => {
    const next = new URLSearchParams(window.location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(name(key));
      else next.set(name(key), value);
    }
    if (!keepPage) for (const key of ['page', 'cursor', 'skip']) next.delete(name(key));
    const query = next.toString();
    navigate(query ? `${location}?${query}` : location, { replace });
  };

  const searchInput = params.get(name('search')) ?? '';
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);

  const column = sorting.fields.sort.safeParse(params.get(name('sort')) ?? undefined).data;
  const order = sortOrders.find((o) => o === params.get(name('order')));
  const sort: Sort<Column> = { sort: column ?? sorting.byDefault.sort, order: order ?? sorting.columns[column ?? sorting.byDefault.sort] };

  const filters = Object.fromEntries(
    Object.entries(filterSchemas ?? {}).map(([key, schema]) => [key, schema.safeParse(params.get(name(key))).data ?? null]),
  ) as FilterValues<Filters>;

  const page = pageOf(params.get(name('page')));
  // Names this list on screen, for the jumps from the pages it has shown (list-page.ts).
  const shownIn = `${location}#${prefix}`;
  const reachedBy = page > 1 ? reachedByOf(params.get(name('cursor')), params.get(name('skip'))) : undefined;

  // Another facility is another list: from its first page (kept as the entry it replaces).
  const scopeSeen = useRef(scope);
  useEffect(() => {
    if (Object.is(scopeSeen.current, scope)) return;
    scopeSeen.current = scope;
    if (new URLSearchParams(window.location.search).has(name('page'))) update({}, { replace: true });
  });

  return {
    sorting,
    searchInput,
    search,
    setSearch: (text) => update({ search: text }, { replace: true }),
    sort,
    setSort: (next) => {
      const isDefault = next === null || (next.sort === sorting.byDefault.sort && next.order === sorting.byDefault.order);
      update(isDefault ? { sort: null, order: null } : { sort: next.sort, order: next.order === sorting.columns[next.sort] ? null : next.order });
    },
    filters,
    setFilter: (key, value) => update({ [key]: value }),
    setFilters: (values) => update(Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Record<string, string | null>),
    page,
    at: { page, reachedBy, shownIn },
    setPage: (next) => {
      const position = next === 1 ? undefined : positionFor(shownIn, next);
      update(
        { page: next === 1 ? null : String(next), cursor: position?.cursor ?? null, skip: position?.skip ? String(position.skip) : null },
        { keepPage: true },
      );
    },
  };
}

/** A list request's query parameters, leaving out those unset. */
export function queryParams(values: Record<string, string | number | null | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== null && value !== undefined && value !== '') params.set(key, String(value));
  }
  return params;
}
