import { z } from 'zod';
import { sortOrders } from './enum-values.ts';

// How a list is ordered: `sort` names one of the list's sortable columns, `order` its direction.
// The API orders on the server by the column, then by the row's primary key, so equal values keep
// one order from page to page; the console keeps both in its URL.

export const SortOrder = z.enum(sortOrders);
export type SortOrder = z.infer<typeof SortOrder>;

export type Sort<Column extends string> = { sort: Column; order: SortOrder };

export interface ListSorting<Column extends string> {
  /** Each sortable column with the direction it sorts in when the request names none (text A→Z, dates newest first...). */
  columns: Readonly<Record<Column, SortOrder>>;
  /** The order of the list when the request names no column. */
  byDefault: Sort<Column>;
  /** The `sort` and `order` fields of the list's query. */
  fields: { sort: z.ZodOptional<z.ZodEnum<{ [K in Column]: K }>>; order: z.ZodOptional<typeof SortOrder> };
}

/** A list's sortable columns, each with its first direction, and the column it is ordered by when none is asked for. */
export function listSorting<const Column extends string>(columns: Record<Column, SortOrder>, defaultColumn: NoInfer<Column>): ListSorting<Column> {
  const names = Object.keys(columns) as [Column, ...Column[]];
  return {
    columns,
    byDefault: { sort: defaultColumn, order: columns[defaultColumn] },
    fields: { sort: z.enum(names).optional(), order: SortOrder.optional() },
  };
}

/** The order a query asks for: the list's default column when it names none, and the column's own direction when it names no order. */
export function sortOf<Column extends string>(sorting: ListSorting<Column>, query: { sort?: Column | undefined; order?: SortOrder | undefined }): Sort<Column> {
  const sort = query.sort ?? sorting.byDefault.sort;
  return { sort, order: query.order ?? sorting.columns[sort] };
}
