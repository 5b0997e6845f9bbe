import { type InvoiceLine, invoiceLineKindLabels } from '@storage/contracts/billing';
import type { InvoiceDetail, Payment } from '@storage/contracts/invoices';
import { serverMessage } from '@storage/web-client/api';
import { Descriptions, Drawer, Empty, Flex, Result, Skeleton, Timeline, Typography } from 'antd';
import { CustomerLink } from '../../../components/customer-link.tsx';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { formatDate, formatDollars, formatPeriod, formatTime12h } from '../../../lib/format.ts';
import { useCanChange, useCanGiveMoneyBack } from '../../../lib/staff-permissions.ts';
import { WithHistoryTab } from '../../history/components/entity-history.tsx';
import { useInvoice } from '../api/get-invoice.ts';
import { InvoiceStatusTag } from './invoice-status-tag.tsx';
import { paymentColumnsOf } from './payment-columns.tsx';
import { isRefundable, RefundPaymentButton } from './refund-payment-button.tsx';
import { SendInvoiceButton } from './send-invoice-button.tsx';

const paymentColumn = dataTableColumns<Payment>();
const paymentColumns = paymentColumnsOf<Payment>();
/** Owners and managers refund a payment from its row (not on a written-off invoice: it is closed). */
const refundablePaymentColumns = paymentColumn.columns([
  ...paymentColumns,
  paymentColumn.display({
    id: 'actions',
    header: 'Actions',
    // A card refund still pending holds its amount: what is left to give back is net of it.
    cell: ({ row, table }) =>
      isRefundable(row.original, table.options.data) ? <RefundPaymentButton payment={row.original} payments={table.options.data} /> : null,
  }),
]);

type NumberedLine = InvoiceLine & { position: number };

const lineColumn = dataTableColumns<NumberedLine>();
const lineColumns = lineColumn.columns([
  lineColumn.accessor('description', { header: 'Description' }),
  lineColumn.accessor('kind', { header: 'Kind', cell: (info) => invoiceLineKindLabels[info.getValue()] }),
  lineColumn.display({
    id: 'period',
    header: 'Period',
    cell: ({ row }) => (row.original.periodStart && row.original.periodEnd ? formatPeriod(row.original.periodStart, row.original.periodEnd) : '—'),
  }),
  lineColumn.accessor('amount', { header: 'Amount', cell: (info) => formatDollars(info.getValue()) }),
]);

type InvoiceDetailDrawerProps = { invoiceId: string | null; onClose: () => void };

/** One invoice: what it is for, its payments and its history (when and who). */
export function InvoiceDetailDrawer({ invoiceId, onClose }: InvoiceDetailDrawerProps) {
  const invoice = useInvoice(invoiceId);
  const detail = invoice.data;
  const canChange = useCanChange();

  return (
    <Drawer
      open={invoiceId !== null}
      onClose={onClose}
      size="min(560px, 100vw)"
      title={detail ? `Invoice ${detail.invoiceNumber}` : 'Invoice'}
      extra={detail?.status === 'draft' && canChange && <SendInvoiceButton invoice={detail} type="primary" />}
      rootClassName="invoice-detail-drawer"
    >
      {invoice.isPending && <Skeleton active paragraph={{ rows: 8 }} />}
      {invoice.isError && <Result status="error" title="Could not load the invoice" subTitle={serverMessage(invoice.error)} />}
      {detail && (
        <WithHistoryTab streamType="invoice" id={detail.id}>
          <InvoiceDetailBody detail={detail} />
        </WithHistoryTab>
      )}
    </Drawer>
  );
}

function InvoiceDetailBody({ detail }: { detail: InvoiceDetail }) {
  const canRefund = useCanGiveMoneyBack() && detail.status !== 'written_off';
  return (
    <Flex vertical gap={24}>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Status">
          <InvoiceStatusTag status={detail.status} />
        </Descriptions.Item>
        <Descriptions.Item label="Amount">{formatDollars(detail.amount)}</Descriptions.Item>
        <Descriptions.Item label="Customer">
          <div>
            <CustomerLink customerId={detail.customer.id}>
              {detail.customer.firstName} {detail.customer.lastName}
            </CustomerLink>
          </div>
          <Typography.Text type="secondary">{detail.customer.email}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="Due Date">{formatDate(detail.dueDate)}</Descriptions.Item>
        <Descriptions.Item label="Paid Date">{detail.paidDate ? formatDate(detail.paidDate) : '—'}</Descriptions.Item>
        <Descriptions.Item label="Description">{detail.description ?? '—'}</Descriptions.Item>
      </Descriptions>

      <section>
        <Typography.Title level={5}>Lines</Typography.Title>
        <DataTable
          label="Invoice lines"
          compact
          columns={lineColumns}
          rows={detail.lines.map((line, position) => ({ ...line, position }))}
          getRowId={(line) => String(line.position)}
          rowTestId="invoice-line"
          empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No lines" />}
        />
        <Flex justify="flex-end" gap={16} style={{ marginTop: 8 }} data-testid="invoice-lines-total">
          <Typography.Text strong>Total</Typography.Text>
          <Typography.Text strong>{formatDollars(detail.amount)}</Typography.Text>
        </Flex>
      </section>

      <section>
        <Typography.Title level={5}>Payments</Typography.Title>
        <DataTable
          label="Payments"
          compact
          columns={canRefund ? refundablePaymentColumns : paymentColumns}
          rows={detail.payments}
          rowTestId="invoice-payment-row"
          getRowId={(payment) => payment.id}
          empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No payments recorded" />}
        />
      </section>

      <section>
        <Typography.Title level={5}>History</Typography.Title>
        <Timeline
          items={detail.history.map((entry) => ({
            key: entry.id,
            content: (
              <>
                <div>{entry.description}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {formatDate(entry.occurredAt)}, {formatTime12h(entry.occurredAt)} · {entry.actor.name}
                </Typography.Text>
              </>
            ),
          }))}
        />
      </section>
    </Flex>
  );
}
