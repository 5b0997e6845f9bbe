import type { Sort } from '@storage/contracts/sorting';
import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';

/** A list query in parts, so that one page of it and its total count come from the same filter. */
export interface ListSql {
  select: FragmentSqlToken;
  from: FragmentSqlToken;
  where: FragmentSqlToken;
  orderBy: FragmentSqlToken;
}

const CountRow = z.object({ n: z.number() });

/**
 * One page of a list and the total it is a page of (the `x-total-count` of a list answer). A
 * page that is neither full nor past the end tells the total itself; only the others cost a count.
 */
export async function listPage<Row>(
  pool: DatabasePool,
  row: z.ZodType<Row>,
  list: ListSql,
  paging: { page: number; pageSize: number },
): Promise<{ rows: readonly Row[]; total: number }> {
  const offset = (paging.page - 1) * paging.pageSize;
  const rows = await pool.any(sql.type(row)`
    SELECT ${list.select} FROM ${list.from} WHERE ${list.where} ORDER BY ${list.orderBy}
    LIMIT ${paging.pageSize} OFFSET ${offset}`);
  const pageTellsTotal = rows.length < paging.pageSize && (rows.length > 0 || paging.page === 1);
  const total = pageTellsTotal
    ? offset + rows.length
    : await pool.oneFirst(sql.type(CountRow)`SELECT count(*)::int8 AS n FROM ${list.from} WHERE ${list.where}`);
  return { rows, total };
}

/** A filter's conditions joined with AND; no condition matches everything. */
export function allOf(conditions: FragmentSqlToken[]): FragmentSqlToken {
  return conditions.length === 0 ? sql.fragment`true` : sql.fragment`${sql.join(conditions, sql.fragment` AND `)}`;
}

/** `%term%` for LIKE, with the term's own wildcards taken literally. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** An expression that may be NULL: its missing values come last in either direction. */
type NullableExpression = { nullsLast: FragmentSqlToken };
type SortExpression = FragmentSqlToken | NullableExpression;

export const nullsLast = (expression: FragmentSqlToken): NullableExpression => ({ nullsLast: expression });

/** What a sortable column orders by: one or more SQL expressions, compared in turn. */
export type SortColumns<Column extends string> = Record<Column, SortExpression | readonly SortExpression[]>;

/**
 * The ORDER BY of a sorted list, from the list's own map of columns (never from the request's
 * text): the column's expressions in the order asked, then the row's key in the same direction,
 * so rows with equal values keep one order from page to page and descending is ascending
 * reversed (apart from missing values, see `nullsLast`). Plain directions, so the indexes that
 * serve a list's default order still do.
 */
export function orderBy<Column extends string>(columns: SortColumns<Column>, sort: Sort<Column>, key: FragmentSqlToken): FragmentSqlToken {
  const direction = sort.order === 'asc' ? sql.fragment`ASC` : sql.fragment`DESC`;
  const expressions: SortExpression[] = [...[columns[sort.sort]].flat(), key];
  return sql.fragment`${sql.join(
    expressions.map((expression) =>
      'nullsLast' in expression ? sql.fragment`${expression.nullsLast} ${direction} NULLS LAST` : sql.fragment`${expression} ${direction}`,
    ),
    sql.fragment`, `,
  )}`;
}

/** Text as people sort it: letters regardless of case, the same on every database (byte order, whatever its collation). */
export function textOrder(expression: FragmentSqlToken): FragmentSqlToken {
  return sql.fragment`lower(${expression}) COLLATE "C"`;
}

/** A value's place in one of the contracts' lists (statuses, sizes), for sorting in the list's order rather than A→Z. */
export function positionIn(values: readonly string[], expression: FragmentSqlToken): FragmentSqlToken {
  return sql.fragment`array_position(${sql.array([...values], 'text')}, ${expression}::text)`;
}
