import { SendOutlined } from '@ant-design/icons';
import type { InvoiceListItem } from '@storage/contracts/invoices';
import { Button, type ButtonProps } from 'antd';
import { useCanChange } from '../../../lib/staff-permissions.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useSendInvoice } from '../api/send-invoice.ts';

/** Turns a draft into a sent invoice. */
export function SendInvoiceButton({ invoice, ...buttonProps }: { invoice: Pick<InvoiceListItem, 'id' | 'invoiceNumber'> } & ButtonProps) {
  const sendInvoice = useSendInvoice();
  const toast = useToast();
  const canChange = useCanChange();
  if (!canChange) return null;

  const send = () => sendInvoice.mutate(invoice.id, toast.outcome(`Invoice ${invoice.invoiceNumber} sent successfully`, 'Failed to send invoice'));

  return (
    <Button icon={<SendOutlined />} loading={sendInvoice.isPending} onClick={send} {...buttonProps}>
      Send
    </Button>
  );
}
