import { InvoiceStatus, invoiceStatusLabels } from '@storage/contracts/enums';

/** Spec §4: paid green, sent blue, overdue red, draft grey, cancelled slate (slate-600: 4.5:1 on its tag's tint). */
const statusColors: Record<InvoiceStatus, string> = {
  paid: 'green',
  sent: 'blue',
  overdue: 'red',
  draft: 'default',
  cancelled: '#475569',
  written_off: '#7c2d12',
};

export const invoiceStatusColor = (status: InvoiceStatus): string => statusColors[status];

export const invoiceStatusLabel = (status: InvoiceStatus): string => invoiceStatusLabels[status];

export const invoiceStatusOptions = InvoiceStatus.options.map((status) => ({ value: status, label: invoiceStatusLabel(status) }));
