import type { CustomerPayment } from '@storage/contracts/customers';
import { invoiceSorting } from '@storage/contracts/invoices';
import { useMemo, useState } from 'react';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { ListPagination } from '../../../components/list-pagination.tsx';
import { NO_TOTAL } from '../../../lib/list-page.ts';
import { INVOICES_PAGE_SIZE, useInvoices } from '../api/get-invoices.ts';
import { InvoiceDetailDrawer } from './invoice-detail-drawer.tsx';
import { invoiceColumns } from './invoices-table.tsx';
import { paymentColumnsOf } from './payment-columns.tsx';

/** One customer's invoices, newest first, each opening its details (payments and history). */
export function CustomerInvoices({ customerId }: { customerId: string }) {
  const [page, setPage] = useState(1);
  const [viewedInvoiceId, setViewedInvoiceId] = useState<string | null>(null);
  const invoices = useInvoices({ search: '', facilityId: null, status: null, sort: invoiceSorting.byDefault, customerId }, page);
  const columns = useMemo(() => invoiceColumns(setViewedInvoiceId, { withCustomer: false }), []);
  return (
    <>
      <DataTable
        label="Invoices of this customer"
        className="invoices-table"
        columns={columns}
        rows={invoices.data?.invoices}
        getRowId={(invoice) => invoice.id}
        failure={invoices.isError ? { title: 'Could not load invoices', error: invoices.error } : null}
        dimmed={invoices.isPlaceholderData}
        empty="No invoices yet"
        rowTestId="customer-invoice-row"
      />
      <ListPagination page={page} pageSize={INVOICES_PAGE_SIZE} total={invoices.data?.total ?? NO_TOTAL} onChange={setPage} />
      <InvoiceDetailDrawer invoiceId={viewedInvoiceId} onClose={() => setViewedInvoiceId(null)} />
    </>
  );
}

const paymentColumn = dataTableColumns<CustomerPayment>();
const [paidOn, ...paymentFacts] = paymentColumnsOf<CustomerPayment>();
const customerPaymentColumns = paymentColumn.columns([
  paidOn!,
  paymentColumn.accessor('invoiceNumber', { header: 'Invoice #', cell: (info) => <span className="invoice-number">{info.getValue()}</span> }),
  ...paymentFacts,
]);

/** The customer's payments, newest first, each naming the invoice it paid. */
export function CustomerPayments({ payments }: { payments: CustomerPayment[] | undefined }) {
  return (
    <DataTable
      label="Payments of this customer"
      columns={customerPaymentColumns}
      rows={payments}
      getRowId={(payment) => payment.id}
      empty="No payments yet"
      rowTestId="customer-payment-row"
    />
  );
}
