import { type ListPageInfo, type ListTotal, type Paging, TOTAL_COUNT_CAP } from '@storage/contracts/paging';
import type { Sort } from '@storage/contracts/sorting';
import { type CommonQueryMethods, type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import { badCursor, type CursorDirection, decodeCursor, encodeCursor, type ListCursor } from './cursor.ts';
import { ValidationError } from './validate.ts';

/** A list query in parts, so that one page of it, its total count and its cursors come from the same filter and order. */
export interface ListSql {
  select: FragmentSqlToken;
  from: FragmentSqlToken;
  where: FragmentSqlToken;
  orderBy: ListOrder;
  /**
   * Counted up to this many and said as "N+" past it, whatever the planner expects (by default:
   * the count's cap, and a set the planner expects larger than twice the cap is said as its
   * estimate). A search sets it lower (`SEARCH_COUNTED_UP_TO`): the planner's guess of what a
   * trigram search matches can be off by half or double, and counting every match reads every row
   * the index cannot rule out, many more than the rows it matches.
   */
  countUpTo?: number;
  /** How many rows each span of the order's first key holds, when a projection keeps that (see PageSpans). */
  spans?: PageSpans;
  /** The total, when the caller counts it anyway (with figures of its own): not counted again. */
  total?: Promise<ListTotal>;
}

/**
 * A list's rows counted per span of its order's first key (a day), kept by its projection with the
 * rows (migration 043): a page by number deep in the list is read from the span it starts in, an
 * index range with an OFFSET of at most one span, instead of counting its way there from the
 * start. Only for a list whose every row is counted: the whole list, unfiltered, in an order whose
 * first key is the spanned one and never NULL. `table` holds one row per span, `start` the lowest
 * value of the first key in it (comparable with the key), `entries` its rows; for any start s of
 * a span a row's span starts at s or later exactly when its first key is s or more.
 */
export interface PageSpans {
  table: FragmentSqlToken;
  start: FragmentSqlToken;
  entries: FragmentSqlToken;
}

/** One expression of a list's order: its direction, and whether it may be NULL (missing values last in either direction). */
type OrderKey = { expression: FragmentSqlToken; descending: boolean; nullable: boolean };

/**
 * A list's order as keys compared in turn, the row's key last (so it is total: no two rows tie),
 * named for the cursors written for it.
 */
export interface ListOrder {
  name: string;
  keys: readonly OrderKey[];
}

/** Counting stops here: a larger set is said as an estimate or "at least" (see contracts/src/paging.ts). */
const COUNT_CAP = TOTAL_COUNT_CAP;
/**
 * A search's total is counted up to this many matches and said as "1,000+" past it: a term the trigram index cannot narrow ("1-1": punctuation and one-digit
 * words make no trigrams worth the name) leaves every row to read, and even a term it narrows
 * well costs a heap read per match, scattered over the table (on the large history, counting the
 * activity feed's 9,632 matches of a renter's name read its whole 80 MB: 120-290 ms; its first
 * 1,001 took 13 ms).
 */
export const SEARCH_COUNTED_UP_TO = 1_000;
/** A page by number further in than this many rows is not read by OFFSET from the start when it can be read from the end. */
const CHEAP_OFFSET = 2_000;

const CountRow = z.object({ n: z.number() });
const SpanRow = z.object({ bound: z.string().nullable(), skipped: z.number().nullable() });
const PlanRow = z.object({ 'QUERY PLAN': z.array(z.object({ Plan: z.object({ 'Plan Rows': z.number() }) })) });

/** The ORDER BY of an order, or of its reverse (to read a list from its end). */
export function orderSql(order: ListOrder, reversed = false): FragmentSqlToken {
  return sql.fragment`${sql.join(
    order.keys.map(({ expression, descending, nullable }) => {
      const desc = descending !== reversed;
      const direction = desc ? sql.fragment`DESC` : sql.fragment`ASC`;
      // NULLs last in the list's own order, so first when it is read backwards.
      const nulls = nullable ? (reversed ? sql.fragment` NULLS FIRST` : sql.fragment` NULLS LAST`) : sql.fragment``;
      return sql.fragment`${expression} ${direction}${nulls}`;
    }),
    sql.fragment`, `,
  )}`;
}

/**
 * The rows strictly after (or before) the boundary row in the list's order: the first key that
 * differs decides. When every key goes one way and none may be NULL it is one row comparison,
 * which a B-tree index on the keys answers as a range; otherwise it is the same comparison spelt
 * out key by key, with a bound on the first key an index can still use.
 */
function beyond(order: ListOrder, cursor: ListCursor): FragmentSqlToken {
  const after = cursor.direction === 'after';
  const keys = order.keys;
  const values = cursor.keys;
  const simple = keys.every((k) => !k.nullable && k.descending === keys[0]!.descending) && values.every((v) => v !== null);
  if (simple) {
    const greater = keys[0]!.descending !== after;
    const row = sql.join(
      keys.map((k) => k.expression),
      sql.fragment`, `,
    );
    const bound = sql.join(
      values.map((v) => sql.fragment`${v}`),
      sql.fragment`, `,
    );
    return greater ? sql.fragment`(${row}) > (${bound})` : sql.fragment`(${row}) < (${bound})`;
  }
  const strictly = (k: OrderKey, v: string | null): FragmentSqlToken => {
    // After, in an order where NULLs come last: a missing value is after every value, and nothing is after it.
    if (v === null) return after ? sql.fragment`false` : sql.fragment`${k.expression} IS NOT NULL`;
    const greater = k.descending !== after;
    const compared = greater ? sql.fragment`${k.expression} > ${v}` : sql.fragment`${k.expression} < ${v}`;
    return k.nullable && after ? sql.fragment`(${compared} OR ${k.expression} IS NULL)` : compared;
  };
  const equal = (k: OrderKey, v: string | null) => (v === null ? sql.fragment`${k.expression} IS NULL` : sql.fragment`${k.expression} = ${v}`);
  let condition = strictly(keys[keys.length - 1]!, values[keys.length - 1]!);
  for (let i = keys.length - 2; i >= 0; i--) {
    condition = sql.fragment`(${strictly(keys[i]!, values[i]!)} OR (${equal(keys[i]!, values[i]!)} AND ${condition}))`;
  }
  const first = keys[0]!;
  const firstValue = values[0]!;
  if (first.nullable || firstValue === null) return condition;
  const atLeast = first.descending !== after ? sql.fragment`${first.expression} >= ${firstValue}` : sql.fragment`${first.expression} <= ${firstValue}`;
  return sql.fragment`${atLeast} AND ${condition}`;
}

/**
 * How many match, without scanning a large set: the planner's estimate first (no rows read); a
 * set it thinks small enough is counted, up to the cap (exact below it, "at least the cap" past
 * it); a set it thinks larger than twice the cap is answered as its estimate, unless the list
 * counts up to a bound of its own (`countUpTo`, a search), which it then always does.
 */
async function totalOf(pool: DatabasePool, list: ListSql): Promise<ListTotal> {
  if (list.total) return list.total;
  if (list.countUpTo === undefined) {
    const plan = await pool.oneFirst(sql.type(PlanRow)`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${list.from} WHERE ${list.where}`);
    const estimate = Math.round(plan[0]?.Plan['Plan Rows'] ?? 0);
    if (estimate > 2 * COUNT_CAP) return { count: estimate, kind: 'estimated' };
  }
  const cap = list.countUpTo ?? COUNT_CAP;
  const counted = await pool.oneFirst(
    sql.type(CountRow)`SELECT count(*)::int8 AS n FROM (SELECT 1 FROM ${list.from} WHERE ${list.where} LIMIT ${cap + 1}) AS capped`,
  );
  return counted <= cap ? { count: counted, kind: 'exact' } : { count: cap, kind: 'atLeast' };
}

type Read = (
  options: { reversed: boolean; where: FragmentSqlToken; limit: number; offset: number },
  db: CommonQueryMethods,
) => Promise<Record<string, unknown>[]>;

/**
 * The `limit` rows from `offset` on, in the list's order, as OFFSET from the start reads them, by
 * way of the list's spans: the spans wholly before the row at `offset` are summed and passed over
 * as a bound on the first key, and only the rows of the span it is in are counted through. Both
 * reads see one snapshot (the counts are written with the rows), so the page is the one OFFSET
 * would read at that instant. An offset within the first span is read by OFFSET alone.
 */
async function pageFromSpan(pool: DatabasePool, list: ListSql, spans: PageSpans, offset: number, limit: number, read: Read) {
  const first = list.orderBy.keys[0]!;
  return pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`);
    // Newest first: the lowest start whose span and those after it hold no more than the offset;
    // those rows come before the page (the first key at or past the start). Oldest first: the
    // highest start with no more than the offset before it (the first key below the start).
    const { bound, skipped } = await tx.one(
      first.descending
        ? sql.type(SpanRow)`
          SELECT min(start)::text AS bound, max(through)::int8 AS skipped
          FROM (SELECT ${spans.start} AS start, sum(${spans.entries}) OVER (ORDER BY ${spans.start} DESC) AS through FROM ${spans.table}) s
          WHERE through <= ${offset}`
        : sql.type(SpanRow)`
          SELECT max(start)::text AS bound, max(before)::int8 AS skipped
          FROM (SELECT ${spans.start} AS start, sum(${spans.entries}) OVER (ORDER BY ${spans.start}) - ${spans.entries} AS before FROM ${spans.table}) s
          WHERE before <= ${offset}`,
    );
    if (bound === null || skipped === null) return read({ reversed: false, where: list.where, limit: limit + 1, offset }, tx);
    const past = first.descending ? sql.fragment`${first.expression} < ${bound}` : sql.fragment`${first.expression} >= ${bound}`;
    return read({ reversed: false, where: sql.fragment`(${list.where}) AND ${past}`, limit: limit + 1, offset: offset - skipped }, tx);
  });
}

/** One page of a list, what it is a page of, and the cursors of the pages either side. */
export type ListPage<Row> = {
  rows: readonly Row[];
  /** `info.total.count`, for callers that answer only the number. */
  total: number;
  info: ListPageInfo;
};

/**
 * One page of a list (the paging contract of contracts/src/paging.ts). With a cursor, the rows
 * after (or before) its boundary row, read from where an index on the order's keys puts it
 * (keyset paging), past `skip` whole pages; without one, the page by its number: by OFFSET from the start, or, when it is
 * nearer the end of a list whose size is known, from the end in reverse order. One row more than
 * the page is read to know whether there is a page beyond it. The total is counted up to a cap.
 */
export async function listPage<Row>(pool: DatabasePool, row: z.ZodType<Row>, list: ListSql, paging: Paging): Promise<ListPage<Row>> {
  const { page, pageSize } = paging;
  const order = list.orderBy;
  // The order's keys as they are (`__raw0`…) in the rows read, and as text (`__key0`…, for the
  // cursors) in the page only: a row skipped by OFFSET is read but not turned into text, which
  // cost more than reading it (page 648 of the invoices: 30 ms of casts over 32,400 rows, 1.5 ms
  // without them).
  const rawKeys = sql.join(
    order.keys.map((k, i) => sql.fragment`${k.expression} AS ${sql.identifier([`__raw${i}`])}`),
    sql.fragment`, `,
  );
  const keyColumns = sql.join(
    order.keys.map((_, i) => sql.fragment`${sql.identifier(['page', `__raw${i}`])}::text AS ${sql.identifier([`__key${i}`])}`),
    sql.fragment`, `,
  );
  const pageOrder: ListOrder = {
    name: order.name,
    keys: order.keys.map((k, i) => ({ ...k, expression: sql.fragment`${sql.identifier(['page', `__raw${i}`])}` })),
  };
  const read = async (options: { reversed: boolean; where: FragmentSqlToken; limit: number; offset: number }, db: CommonQueryMethods = pool) => {
    try {
      const found = (await db.any(sql.unsafe`
        SELECT page.*, ${keyColumns} FROM (
          SELECT ${list.select}, ${rawKeys} FROM ${list.from} WHERE ${options.where}
          ORDER BY ${orderSql(order, options.reversed)} LIMIT ${options.limit} OFFSET ${options.offset}
        ) AS page
        ORDER BY ${orderSql(pageOrder, options.reversed)}`)) as readonly Record<string, unknown>[];
      return options.reversed ? [...found].reverse() : [...found];
    } catch (error) {
      // A cursor's values that are not of their key's type (22P02 and the rest of class 22: data exceptions).
      if (paging.cursor && /^22/.test(String((error as { code?: string }).code ?? ''))) throw badCursor('must be a cursor the list answered');
      throw error;
    }
  };
  const cursorOf = (raw: Record<string, unknown>, direction: CursorDirection) =>
    encodeCursor({ order: order.name, direction, keys: order.keys.map((_, i) => (raw[`__key${i}`] ?? null) as string | null) });

  let found: Record<string, unknown>[];
  let morePast: boolean;
  let moreBefore: boolean;
  let known: ListTotal | undefined;
  if (paging.skip && !paging.cursor)
    throw new ValidationError('skip: is read from a cursor: send the cursor of a page shown (x-next-cursor or x-prev-cursor) with it', 'skip');
  if (paging.cursor) {
    const cursor = decodeCursor(paging.cursor, { order: order.name, keys: order.keys.length });
    const reversed = cursor.direction === 'before';
    // The total on another connection meanwhile: the page does not change it.
    const [rows, counted] = await Promise.all([
      // `skip` whole pages nearest the boundary passed over (a jump near a page shown): an index range and a short offset.
      read({ reversed, where: sql.fragment`(${list.where}) AND ${beyond(order, cursor)}`, limit: pageSize + 1, offset: (paging.skip ?? 0) * pageSize }),
      totalOf(pool, list),
    ]);
    known = counted;
    const more = rows.length > pageSize;
    found = reversed ? rows.slice(rows.length - Math.min(rows.length, pageSize)) : rows.slice(0, pageSize);
    // The boundary row (and any pages skipped) is on the side the cursor came from.
    morePast = reversed ? true : more;
    moreBefore = reversed ? more : true;
  } else {
    const offset = (page - 1) * pageSize;
    if (offset > CHEAP_OFFSET) known = await totalOf(pool, list);
    const fromEnd = known?.kind === 'exact' ? known.count - offset - pageSize : undefined;
    const pastEstimate = known?.kind === 'estimated' && offset + pageSize >= known.count;
    if (list.spans && offset > CHEAP_OFFSET && !pastEstimate) {
      // From the span the page starts in (its total known already).
      const rows = await pageFromSpan(pool, list, list.spans, offset, pageSize, read);
      found = rows.slice(0, pageSize);
      morePast = rows.length > pageSize;
      moreBefore = true;
      if (!morePast && found.length > 0) known = { count: offset + found.length, kind: 'exact' };
    } else if (fromEnd !== undefined && fromEnd > -pageSize && fromEnd < offset) {
      // Nearer the end: the page's rows counted back from the last row.
      const rows = await read({ reversed: true, where: list.where, limit: pageSize + Math.min(0, fromEnd), offset: Math.max(0, fromEnd) });
      found = rows;
      morePast = fromEnd > 0;
      moreBefore = rows.length > 0 && offset > 0;
    } else if (pastEstimate) {
      // The last page of a list whose size is only estimated (or past it): its last rows, read from the end.
      const rows = await read({ reversed: true, where: list.where, limit: pageSize + 1, offset: 0 });
      found = rows.slice(rows.length - Math.min(rows.length, pageSize));
      morePast = false;
      moreBefore = rows.length > pageSize;
    } else {
      // The total meanwhile on another connection (unless the page reaches the end and tells it).
      const [rows, counted] = await Promise.all([read({ reversed: false, where: list.where, limit: pageSize + 1, offset }), known ?? totalOf(pool, list)]);
      found = rows.slice(0, pageSize);
      morePast = rows.length > pageSize;
      moreBefore = offset > 0 && (rows.length > 0 || page > 1);
      // A page that reaches the end tells the total itself.
      known = !morePast && (found.length > 0 || page === 1) ? { count: offset + found.length, kind: 'exact' } : counted;
    }
  }
  const total = known ?? (await totalOf(pool, list));
  const first = found[0];
  const last = found[found.length - 1];
  const info: ListPageInfo = {
    total,
    nextCursor: morePast && last ? cursorOf(last, 'after') : null,
    prevCursor: moreBefore && first ? cursorOf(first, 'before') : null,
  };
  return { rows: found.map((raw) => row.parse(raw)), total: total.count, info };
}

/** The condition of a list with no filter: `allOf([])`, the very fragment (so a list can tell it is unfiltered). */
export const NO_CONDITION: FragmentSqlToken = sql.fragment`true`;

/** A filter's conditions joined with AND; no condition matches everything. */
export function allOf(conditions: FragmentSqlToken[]): FragmentSqlToken {
  return conditions.length === 0 ? NO_CONDITION : sql.fragment`${sql.join(conditions, sql.fragment` AND `)}`;
}

/** `%term%` for LIKE, with the term's own wildcards taken literally. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The rows whose search text (a `search_text` column, lowercase) holds the term, through the
 * column's trigram index: both sides read through search_key() (migration 045), as the index is,
 * so punctuation in the term narrows the index's answer instead of splitting it into words.
 */
export function searchMatches(column: FragmentSqlToken, term: string): FragmentSqlToken {
  return sql.fragment`search_key(${column}) LIKE search_key(${containsPattern(term)})`;
}

/** An expression that may be NULL: its missing values come last in either direction. */
type NullableExpression = { nullsLast: FragmentSqlToken };
type SortExpression = FragmentSqlToken | NullableExpression;

export const nullsLast = (expression: FragmentSqlToken): NullableExpression => ({ nullsLast: expression });

/** What a sortable column orders by: one or more SQL expressions, compared in turn. */
export type SortColumns<Column extends string> = Record<Column, SortExpression | readonly SortExpression[]>;

/**
 * The order of a sorted list, from the list's own map of columns (never from the request's text):
 * the keys it always starts with (`leading`, ascending), the column's expressions in the
 * direction asked, then the row's key in the same direction, so rows with equal values keep one
 * order from page to page and descending is ascending reversed (apart from missing values, see
 * `nullsLast`). Plain directions, so the indexes that serve a list's default order still do.
 */
export function orderBy<Column extends string>(
  columns: SortColumns<Column>,
  sort: Sort<Column>,
  key: FragmentSqlToken,
  leading: readonly FragmentSqlToken[] = [],
): ListOrder {
  const descending = sort.order === 'desc';
  const expressions: SortExpression[] = [...[columns[sort.sort]].flat(), key];
  return {
    name: `${sort.sort}.${sort.order}`,
    keys: [
      ...leading.map((expression) => ({ expression, descending: false, nullable: false })),
      ...expressions.map((e) => ('nullsLast' in e ? { expression: e.nullsLast, descending, nullable: true } : { expression: e, descending, nullable: false })),
    ],
  };
}

/** A list's one order (it offers no sorting): its expressions, none of them NULL, the row's key last. */
export function fixedOrder(name: string, keys: readonly { expression: FragmentSqlToken; descending?: boolean }[]): ListOrder {
  return { name, keys: keys.map((k) => ({ expression: k.expression, descending: k.descending ?? false, nullable: false })) };
}

/** Text as people sort it: letters regardless of case, the same on every database (byte order, whatever its collation). */
export function textOrder(expression: FragmentSqlToken): FragmentSqlToken {
  return sql.fragment`lower(${expression}) COLLATE "C"`;
}

/** A value's place in one of the contracts' lists (statuses, sizes), for sorting in the list's order rather than A→Z. */
export function positionIn(values: readonly string[], expression: FragmentSqlToken): FragmentSqlToken {
  return sql.fragment`array_position(${sql.array([...values], 'text')}, ${expression}::text)`;
}
