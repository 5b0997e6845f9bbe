import { EyeOutlined } from '@ant-design/icons';
import { InvoiceStatus } from '@storage/contracts/enums';
import { type InvoiceListItem, invoiceSorting } from '@storage/contracts/invoices';
import { totalText } from '@storage/contracts/page-info';
import { Button, Card, Flex, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { CustomerLink } from '../../../components/customer-link.tsx';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { StatusFilter } from '../../../components/status-filter.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { NO_TOTAL } from '../../../lib/list-page.ts';
import { useListState } from '../../../lib/list-state.ts';
import { INVOICES_PAGE_SIZE, useInvoices } from '../api/get-invoices.ts';
import { invoiceStatusOptions } from '../invoice-status.ts';
import { InvoiceDetailDrawer } from './invoice-detail-drawer.tsx';
import { InvoiceStatusTag } from './invoice-status-tag.tsx';
import './invoices-table.css';
import { SendInvoiceButton } from './send-invoice-button.tsx';

const LOADING_PLACEHOLDER_ROWS = 5;

const column = dataTableColumns<InvoiceListItem>();

const customerColumn = column.accessor('customer', {
  header: 'Customer',
  cell: (info) => {
    const customer = info.getValue();
    return (
      <div className="invoice-customer">
        <div>
          <CustomerLink customerId={customer.id}>
            {customer.firstName} {customer.lastName}
          </CustomerLink>
        </div>
        <Typography.Text type="secondary" className="invoice-customer-email">
          {customer.email}
        </Typography.Text>
      </div>
    );
  },
});

/** The invoice list's columns; the customer page leaves out the customer column. */
export function invoiceColumns(view: (invoiceId: string) => void, { withCustomer = true } = {}) {
  return column.columns([
    column.accessor('invoiceNumber', { header: 'Invoice #', cell: (info) => <span className="invoice-number">{info.getValue()}</span> }),
    ...(withCustomer ? [customerColumn] : []),
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

/** 'All Invoices': searched, filtered by status, sorted, scoped to the selected facility and paginated on the server. */
export function InvoicesTable() {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const list = useListState({ sorting: invoiceSorting, filters: { status: InvoiceStatus }, scope: facilityId });
  const invoices = useInvoices({ search: list.search, facilityId, status: list.filters.status, sort: list.sort }, list.at);
  const [viewedInvoiceId, setViewedInvoiceId] = useState<string | null>(null);
  const columns = useMemo(() => invoiceColumns(setViewedInvoiceId), []);
  const total = invoices.data?.total ?? NO_TOTAL;

  return (
    <Card
      title="All Invoices"
      extra={
        invoices.isSuccess && (
          <Typography.Text type="secondary" data-testid="invoice-count">
            {totalText(total)} {total.count === 1 ? 'invoice' : 'invoices'}
          </Typography.Text>
        )
      }
      styles={{ body: { padding: 0 } }}
    >
      <Flex className="data-table-toolbar" gap={12} wrap>
        <SearchInput placeholder="Search invoices by number or customer..." label="Search invoices" value={list.searchInput} onChange={list.setSearch} />
        <StatusFilter
          label="Invoice status"
          value={list.filters.status}
          options={invoiceStatusOptions}
          onChange={(status) => list.setFilter('status', status)}
        />
      </Flex>

      <DataTable
        label="All invoices"
        className="invoices-table"
        columns={columns}
        rows={invoices.data?.invoices}
        getRowId={(invoice) => invoice.id}
        list={list}
        sortLabels={{ createdAt: 'Created' }}
        pageSize={INVOICES_PAGE_SIZE}
        total={total}
        failure={invoices.isError ? { title: 'Could not load invoices', error: invoices.error } : null}
        dimmed={invoices.isPlaceholderData}
        empty="No invoices found"
        placeholderRows={LOADING_PLACEHOLDER_ROWS}
        rowTestId="invoice-row"
        placeholderTestId="invoice-placeholder-row"
      />

      <InvoiceDetailDrawer invoiceId={viewedInvoiceId} onClose={() => setViewedInvoiceId(null)} />
    </Card>
  );
}
