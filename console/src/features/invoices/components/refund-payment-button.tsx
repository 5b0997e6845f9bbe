import { RefundRequest } from '@storage/contracts/billing';
import { paymentMethodLabels } from '@storage/contracts/enums';
import type { Payment } from '@storage/contracts/invoices';
import { formatDollars, fromCents, toCents } from '@storage/contracts/money';
import { Button, Input, Typography } from 'antd';
import { useState } from 'react';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useRefundPayment } from '../api/refund-payment.ts';

/** What is left of a payment to give back: less what was refunded and what is being refunded (its pending refund rows among `payments`). */
export function refundableAmount(payment: Payment, payments: readonly Payment[] = []): string {
  const pending = payments.filter((p) => p.refundOf === payment.id && p.status === 'pending').reduce((sum, p) => sum + toCents(p.amount), 0n);
  return fromCents(toCents(payment.amount) - toCents(payment.amountRefunded) - pending);
}

/** Whether staff may refund the payment: a payment (not a refund's row) of money, with something left to give back. */
export function isRefundable(payment: Payment, payments: readonly Payment[] = []): boolean {
  return payment.status === 'completed' && payment.method !== 'account_credit' && toCents(refundableAmount(payment, payments)) > 0n;
}

type RefundValues = { amount: string; reason: string };

/** Refund: gives back part or all of a payment, with a reason; a card payment goes back through the provider. */
export function RefundPaymentButton({ payment, payments = [] }: { payment: Payment; payments?: readonly Payment[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} aria-label={`Refund the payment of ${formatDollars(payment.amount)}`}>
        Refund
      </Button>
      <FormDialog open={open} title="Refund Payment" width={480} onClose={() => setOpen(false)}>
        <RefundForm payment={payment} left={refundableAmount(payment, payments)} onDone={() => setOpen(false)} />
      </FormDialog>
    </>
  );
}

/** Made anew on each opening, with its own idempotency key: a double submit refunds once. */
function RefundForm({ payment, left, onDone }: { payment: Payment; left: string; onDone: () => void }) {
  const [key] = useState(() => crypto.randomUUID());
  const refund = useRefundPayment();
  const toast = useToast();
  const save = (request: RefundValues) =>
    refund.mutate(
      { paymentId: payment.id, request, key },
      toast.outcome(`Refund of ${formatDollars(request.amount)} recorded`, 'Failed to refund the payment', onDone),
    );
  return (
    <DialogForm<RefundValues>
      initialValues={{ amount: left, reason: '' }}
      onFinish={save}
      saving={refund.isPending}
      submitLabel="Refund"
      danger
      onCancel={onDone}
    >
      <Typography.Paragraph>
        {paymentMethodLabels[payment.method]} payment of {formatDollars(payment.amount)}; {formatDollars(left)} can be refunded.
        {payment.method === 'card' ? ' The money goes back to the card.' : ' Hand the money back to the renter.'} The invoice is owed that much again.
      </Typography.Paragraph>
      <FieldGrid>
        <GridField label="Amount" name="amount" required rules={[contractRule('Amount', RefundRequest.shape.amount)]}>
          <Input prefix="$" placeholder="0.00" inputMode="decimal" autoComplete="off" />
        </GridField>
        <GridField wide label="Reason" name="reason" required rules={[contractRule('Reason', RefundRequest.shape.reason)]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
        </GridField>
      </FieldGrid>
    </DialogForm>
  );
}
