import { CaretDownFilled, CaretUpFilled } from '@ant-design/icons';
import type { ListTotal } from '@storage/contracts/page-info';
import type { SortOrder } from '@storage/contracts/sorting';
import { serverMessage } from '@storage/web-client/api';
import {
  type ColumnHelper,
  createColumnHelper,
  type RowData,
  rowPaginationFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  type Updater,
  useTable,
} from '@tanstack/react-table';
import { Empty, Skeleton } from 'antd';
import { type KeyboardEvent, type ReactNode, useMemo } from 'react';
import { NO_TOTAL } from '../lib/list-page.ts';
import type { ListState } from '../lib/list-state.ts';
import { ListPagination } from './list-pagination.tsx';
import { OnDemandResult } from './on-demand.tsx';
import { SortSelect } from './sort-select.tsx';
import './data-table.css';

// The console's one table: TanStack Table's model (sorting and pagination done by the server, so
// "manual"), drawn in antd's look. Sortable headers are buttons, the sorted one carries aria-sort;
// on a phone each row becomes a block of labelled lines and the sort is chosen above the rows.

const features = tableFeatures({ rowSortingFeature, rowPaginationFeature });
type Features = typeof features;

/** The column helper of DataTable columns; a column sorts when its id is one of the list's sort columns. */
export const dataTableColumns = <Row extends RowData>(): ColumnHelper<Features, Row> => createColumnHelper<Features, Row>();
export type DataTableColumns<Row extends RowData> = ReturnType<ColumnHelper<Features, Row>['columns']>;

type ListControls<Column extends string> = Pick<ListState<Column>, 'sorting' | 'sort' | 'setSort' | 'page' | 'setPage'>;

type DataTableProps<Row extends RowData, Column extends string> = {
  /** The table's name for screen readers. */
  label: string;
  columns: DataTableColumns<Row>;
  /** Undefined until the first answer: placeholder rows stand in. */
  rows: Row[] | undefined;
  getRowId: (row: Row) => string;
  /** The list's sort and page, from useListState: headers of its sort columns become sort buttons. */
  list?: ListControls<Column>;
  /** What the sort columns without a column of their own are called (in the phone's sort choice). */
  sortLabels?: Partial<Record<Column, string>>;
  /** With `list`: the rows a page holds and how many match, for the pages below the table. */
  pageSize?: number;
  total?: ListTotal | number;
  /** The list could not be loaded: this is said instead of the table. */
  failure?: { title: string; error: Error } | null;
  /** Showing the previous answer while the next one loads. */
  dimmed?: boolean;
  empty: ReactNode;
  placeholderRows?: number;
  rowTestId?: string;
  placeholderTestId?: string;
  /** Opens a row (its details): on a click, or Enter or Space on the row, which then takes focus with Tab. */
  onOpenRow?: (row: Row) => void;
  /** Tighter cells, for a table inside a drawer or a card's section. */
  compact?: boolean;
  className?: string;
};

const ariaSort = { asc: 'ascending', desc: 'descending' } as const;

export function DataTable<Row extends RowData, Column extends string = never>({
  label,
  columns,
  rows,
  getRowId,
  list,
  sortLabels,
  pageSize,
  total = NO_TOTAL,
  failure,
  dimmed = false,
  empty,
  placeholderRows = 5,
  rowTestId,
  placeholderTestId,
  onOpenRow,
  compact = false,
  className,
}: DataTableProps<Row, Column>) {
  const sortColumns: Partial<Record<string, SortOrder>> | undefined = list?.sorting.columns;
  // Each sort column starts in its own direction (names A→Z, dates newest first), as the API does.
  const sortableColumns = useMemo(
    () =>
      columns.map((column) => {
        const id = column.id ?? ('accessorKey' in column ? String(column.accessorKey) : '');
        const firstDirection = sortColumns?.[id];
        return { ...column, enableSorting: firstDirection !== undefined, sortDescFirst: firstDirection === 'desc' };
      }),
    [columns, sortColumns],
  );
  const sorting: SortingState = list ? [{ id: list.sort.sort, desc: list.sort.order === 'desc' }] : [];
  const changeSorting = (updater: Updater<SortingState>) => {
    if (!list) return;
    const [next] = typeof updater === 'function' ? updater(sorting) : updater;
    // Past both directions the sort goes back to the list's own order.
    list.setSort(next ? { sort: next.id as Column, order: next.desc ? 'desc' : 'asc' } : null);
  };

  const table = useTable({
    features,
    columns: sortableColumns,
    data: rows ?? [],
    getRowId,
    state: { sorting, pagination: { pageIndex: (list?.page ?? 1) - 1, pageSize: pageSize ?? Math.max(rows?.length ?? 0, 1) } },
    onSortingChange: changeSorting,
    manualSorting: true,
    manualPagination: true,
    enableMultiSort: false,
    enableSortingRemoval: true,
    rowCount: pageSize === undefined ? (rows?.length ?? 0) : typeof total === 'number' ? total : total.count,
  });
  const headers = table.getHeaderGroups().flatMap((group) => group.headers);
  const headerText = (id: string) => {
    const header = headers.find((candidate) => candidate.column.id === id)?.column.columnDef.header;
    return typeof header === 'string' ? header : undefined;
  };
  const phoneSortLabels = list
    ? (Object.fromEntries(Object.keys(list.sorting.columns).map((id) => [id, sortLabels?.[id as Column] ?? headerText(id) ?? id])) as Record<Column, string>)
    : null;
  const tableRows = table.getRowModel().rows;

  if (failure) return <OnDemandResult status="error" title={failure.title} subTitle={serverMessage(failure.error)} />;

  return (
    <div className={['data-table', compact && 'data-table-compact', className].filter(Boolean).join(' ')}>
      {list && phoneSortLabels && <SortSelect list={list} labels={phoneSortLabels} className="data-table-phone-sort" />}
      <table aria-label={label} aria-busy={rows === undefined || dimmed} style={{ opacity: dimmed ? 0.6 : 1 }}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const direction = header.column.getIsSorted();
                return (
                  <th key={header.id} scope="col" className={`col-${header.column.id}`} aria-sort={direction ? ariaSort[direction] : undefined}>
                    {header.column.getCanSort() ? (
                      <button type="button" className="data-table-sort" onClick={header.column.getToggleSortingHandler()}>
                        <table.FlexRender header={header} />
                        <span className={direction ? 'data-table-sort-icon data-table-sort-icon-active' : 'data-table-sort-icon'} aria-hidden="true">
                          {direction === 'desc' ? <CaretDownFilled /> : <CaretUpFilled />}
                        </span>
                      </button>
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows === undefined &&
            Array.from({ length: placeholderRows }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: loading placeholders, a fixed list that never reorders
              <tr key={index} data-testid={placeholderTestId}>
                {headers.map((header) => (
                  <td key={header.id}>
                    <Skeleton.Input active size="small" block />
                  </td>
                ))}
              </tr>
            ))}
          {rows !== undefined && tableRows.length === 0 && (
            <tr className="data-table-empty">
              <td colSpan={headers.length}>{typeof empty === 'string' ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> : empty}</td>
            </tr>
          )}
          {tableRows.map((row) => (
            <tr
              key={row.id}
              data-testid={rowTestId}
              {...(onOpenRow && {
                className: 'data-table-row-opens',
                tabIndex: 0,
                onClick: () => onOpenRow(row.original),
                onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>) => {
                  if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return;
                  event.preventDefault();
                  onOpenRow(row.original);
                },
              })}
            >
              {row.getAllCells().map((cell) => {
                const header = cell.column.columnDef.header;
                return (
                  <td key={cell.id} className={`col-${cell.column.id}`} data-label={typeof header === 'string' ? header : undefined}>
                    <table.FlexRender cell={cell} />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {list && pageSize !== undefined && <ListPagination page={list.page} pageSize={pageSize} total={total} onChange={list.setPage} />}
    </div>
  );
}
