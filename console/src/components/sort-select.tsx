import type { Sort, SortOrder } from '@storage/contracts/sorting';
import { Flex, Select } from 'antd';
import type { ListState } from '../lib/list-state.ts';

const orderOptions: Array<{ value: SortOrder; label: string }> = [
  { value: 'asc', label: 'Ascending' },
  { value: 'desc', label: 'Descending' },
];

type SortSelectProps<Column extends string> = {
  list: Pick<ListState<Column>, 'sorting' | 'sort' | 'setSort'>;
  /** What each sortable column is called on the screen. */
  labels: Record<Column, string>;
  className?: string;
};

/** Sort by a column, in either order: the sort of a list of cards, and of a table on a phone (where its headers are hidden). */
export function SortSelect<Column extends string>({ list, labels, className }: SortSelectProps<Column>) {
  const columns = Object.keys(list.sorting.columns) as Column[];
  const choose = (next: Sort<Column>) => list.setSort(next);
  return (
    <Flex gap={8} align="center" className={className}>
      <Select<Column>
        aria-label="Sort by"
        value={list.sort.sort}
        options={columns.map((column) => ({ value: column, label: `Sort by ${labels[column]}` }))}
        // A new column sorts in its own first direction (names A→Z, dates newest first).
        onChange={(column) => choose({ sort: column, order: list.sorting.columns[column] })}
        popupMatchSelectWidth={false}
        style={{ minWidth: 150 }}
      />
      <Select<SortOrder>
        aria-label="Sort order"
        value={list.sort.order}
        options={orderOptions}
        onChange={(order) => choose({ sort: list.sort.sort, order })}
        style={{ width: 124 }}
      />
    </Flex>
  );
}
