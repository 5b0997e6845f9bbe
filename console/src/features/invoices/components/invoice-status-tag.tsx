import type { InvoiceStatus } from '@storage/contracts/enums';
import { Tag } from 'antd';
import { invoiceStatusColor, invoiceStatusLabel } from '../invoice-status.ts';

export function InvoiceStatusTag({ status }: { status: InvoiceStatus }) {
  return <Tag color={invoiceStatusColor(status)}>{invoiceStatusLabel(status)}</Tag>;
}
