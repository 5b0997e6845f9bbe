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
