import { EyeOutlined } from '@ant-design/icons';
import type { InvoiceListItem } from '@storage/contracts/invoices';
import { serverMessage } from '@storage/web-client/api';
import { createColumnHelper, type PaginationState, rowPaginationFeature, tableFeatures, useTable } from '@tanstack/react-table';
import { Button, Card, Empty, Flex, Pagination, Result, Skeleton, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { SearchInput } from '../../../components/search-input.tsx';
import { useSearchTerm } from '../../../hooks/use-search-term.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { INVOICES_PAGE_SIZE, useInvoices } from '../api/get-invoices.ts';
import { InvoiceDetailDrawer } from './invoice-detail-drawer.tsx';
import { InvoiceStatusTag } from './invoice-status-tag.tsx';
import './invoices-table.css';
import { SendInvoiceButton } from './send-invoice-button.tsx';

const LOADING_PLACEHOLDER_ROWS = 5;
const emptyRows: InvoiceListItem[] = [];

const features = tableFeatures({ rowPaginationFeature });
const column = createColumnHelper<typeof features, InvoiceListItem>();

function invoiceColumns(view: (invoiceId: string) => void) {
  return column.columns([
    column.accessor('invoiceNumber', { header: 'Invoice #', cell: (info) => <span className="invoice-number">{info.getValue()}</span> }),
    column.accessor('customer', {
      header: 'Customer',
      cell: (info) => {
        const customer = info.getValue();
        return (
          <div className="invoice-customer">
            <div>
              {customer.firstName} {customer.lastName}
            </div>
            <Typography.Text type="secondary" className="invoice-customer-email">
              {customer.email}
            </Typography.Text>
          </div>
        );
      },
    }),
    column.accessor('amount', { header: 'Amount', cell: (info) => formatDollars(info.getValue()) }),
    column.accessor('status', { header: 'Status', cell: (info) => <InvoiceStatusTag status={info.getValue()} /> }),
    column.accessor('dueDate', { header: 'Due Date', cell: (info) => formatDate(info.getValue()) }),
    column.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => (
        <Flex gap={8} wrap>
          <Button size="small" icon={<EyeOutlined />} onClick={() => view(row.original.id)}>
            View
          </Button>
          {row.original.status === 'draft' && <SendInvoiceButton size="small" invoice={row.original} />}
        </Flex>
      ),
    }),
  ]);
}

/** 'All Invoices': searched, scoped to the selected facility and paginated on the server. */
export function InvoicesTable() {
  const { input, setInput, search } = useSearchTerm();
  const { selectedFacility } = useFacilityScope();
  const filter = useMemo(() => ({ search, facilityId: selectedFacility?.id ?? null }), [search, selectedFacility]);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: INVOICES_PAGE_SIZE });
  // A new search or facility starts again at its first page.
  const [pagedFilter, setPagedFilter] = useState(filter);
  if (pagedFilter !== filter) {
    setPagedFilter(filter);
    setPagination((current) => ({ ...current, pageIndex: 0 }));
  }
  const invoices = useInvoices(filter, pagination.pageIndex + 1);
  const [viewedInvoiceId, setViewedInvoiceId] = useState<string | null>(null);
  const columns = useMemo(() => invoiceColumns(setViewedInvoiceId), []);

  const table = useTable({
    features,
    columns,
    data: invoices.data?.invoices ?? emptyRows,
    getRowId: (invoice) => invoice.id,
    rowCount: invoices.data?.total ?? 0,
    state: { pagination },
    onPaginationChange: setPagination,
    manualPagination: true,
    autoResetPageIndex: false,
  });
  const total = invoices.data?.total ?? 0;
  const rows = table.getRowModel().rows;

  return (
    <Card
      title="All Invoices"
      extra={
        invoices.isSuccess && (
          <Typography.Text type="secondary" data-testid="invoice-count">
            {total} {total === 1 ? 'invoice' : 'invoices'}
          </Typography.Text>
        )
      }
      styles={{ body: { padding: 0 } }}
    >
      <div className="invoices-toolbar">
        <SearchInput placeholder="Search invoices by number or customer..." label="Search invoices" value={input} onChange={setInput} />
      </div>

      {invoices.isError ? (
        <Result status="error" title="Could not load invoices" subTitle={serverMessage(invoices.error)} />
      ) : (
        <table className="invoices-table" aria-busy={invoices.isFetching} style={{ opacity: invoices.isPlaceholderData ? 0.6 : 1 }}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id} scope="col" className={`invoices-col-${header.column.id}`}>
                    <table.FlexRender header={header} />
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {invoices.isPending &&
              Array.from({ length: LOADING_PLACEHOLDER_ROWS }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: loading placeholders, a fixed list that never reorders
                <tr key={index} data-testid="invoice-placeholder-row">
                  {columns.map((_column, cellIndex) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: loading placeholders, a fixed list that never reorders
                    <td key={cellIndex}>
                      <Skeleton.Input active size="small" block />
                    </td>
                  ))}
                </tr>
              ))}
            {invoices.isSuccess && rows.length === 0 && (
              <tr className="invoices-empty">
                <td colSpan={columns.length}>
                  <Empty description="No invoices found" />
                </td>
              </tr>
            )}
            {rows.map((row) => (
              <tr key={row.id} data-testid="invoice-row">
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className={`invoices-col-${cell.column.id}`} data-label={String(cell.column.columnDef.header)}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {total > INVOICES_PAGE_SIZE && (
        <Flex justify="flex-end" className="invoices-pagination">
          <Pagination
            current={pagination.pageIndex + 1}
            pageSize={pagination.pageSize}
            total={total}
            showSizeChanger={false}
            onChange={(page) => table.setPageIndex(page - 1)}
          />
        </Flex>
      )}

      <InvoiceDetailDrawer invoiceId={viewedInvoiceId} onClose={() => setViewedInvoiceId(null)} />
    </Card>
  );
}
