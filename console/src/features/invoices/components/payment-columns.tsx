import { paymentMethodLabels } from '@storage/contracts/enums';
import type { Payment } from '@storage/contracts/invoices';
import { dataTableColumns } from '../../../components/data-table.tsx';
import { formatDate, formatDollars } from '../../../lib/format.ts';

/** A payment's date, amount, method and status, in words; for any row that is a payment. */
export function paymentColumnsOf<Row extends Payment>() {
  const column = dataTableColumns<Row>();
  return column.columns([
    column.accessor((payment) => payment.createdAt, { id: 'createdAt', header: 'Date', cell: (info) => formatDate(info.getValue()) }),
    column.accessor((payment) => payment.amount, { id: 'amount', header: 'Amount', cell: (info) => formatDollars(info.getValue()) }),
    column.accessor((payment) => payment.method, { id: 'method', header: 'Method', cell: (info) => paymentMethodLabels[info.getValue()] }),
    column.accessor((payment) => payment.status, {
      id: 'status',
      header: 'Status',
      cell: ({ getValue, row }) => {
        // A card refund requested and not yet made by the provider (the reconciliation finishes it).
        if (getValue() === 'pending' && row.original.refundOf) return 'Refund pending';
        const status = getValue().charAt(0).toUpperCase() + getValue().slice(1);
        // A payment staff gave part or all of back says how much (the refund has a row of its own).
        const refunded = row.original.amountRefunded;
        return refunded && refunded !== '0.00' ? `${status}, ${formatDollars(refunded)} refunded` : status;
      },
    }),
  ]);
}
