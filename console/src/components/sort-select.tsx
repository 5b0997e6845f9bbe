import type { Sort, SortOrder } from '@storage/contracts/sorting';
import { Flex, Select } from 'antd';
import type { ListState } from '../lib/list-state.ts';

const orderWords: Record<SortOrder, string> = { asc: 'Ascending', desc: 'Descending' };

type SortSelectProps<Column extends string> = {
  list: Pick<ListState<Column>, 'sorting' | 'sort' | 'setSort'>;
  /** What each sortable column is called on the screen. */
  labels: Record<Column, string>;
  /** What the two directions read, e.g. 'Newest first' for a list sorted by one date. */
  orderLabels?: Record<SortOrder, string>;
  className?: string;
};

/** Sort by a column, in either order: the sort of a list of cards, and of a table on a phone (where its headers are hidden). */
export function SortSelect<Column extends string>({ list, labels, orderLabels = orderWords, className }: SortSelectProps<Column>) {
  const columns = Object.keys(list.sorting.columns) as Column[];
  const choose = (next: Sort<Column>) => list.setSort(next);
  return (
    <Flex gap={8} align="center" className={className}>
      {columns.length > 1 && (
        <Select<Column>
          aria-label="Sort by"
          value={list.sort.sort}
          options={columns.map((column) => ({ value: column, label: `Sort by ${labels[column]}` }))}
          // A new column sorts in its own first direction (names A→Z, dates newest first).
          onChange={(column) => choose({ sort: column, order: list.sorting.columns[column] })}
          popupMatchSelectWidth={false}
          style={{ minWidth: 150 }}
        />
      )}
      <Select<SortOrder>
        aria-label="Sort order"
        value={list.sort.order}
        options={(['asc', 'desc'] as const).map((order) => ({ value: order, label: orderLabels[order] }))}
        onChange={(order) => choose({ sort: list.sort.sort, order })}
        popupMatchSelectWidth={false}
        style={{ minWidth: 124 }}
      />
    </Flex>
  );
}
