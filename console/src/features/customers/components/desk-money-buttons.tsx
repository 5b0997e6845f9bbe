import { CreditRefundRequest, CreditRequest, DeskPaymentRequest } from '@storage/contracts/billing';
import { type DeskPaymentMethod, paymentMethodLabels } from '@storage/contracts/enums';
import { formatDollars } from '@storage/contracts/money';
import { Button, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useGiveCredit, useRefundCredit, useTakeDeskPayment } from '../api/desk.ts';

const deskMethods = ['cash', 'check', 'card_present', 'bank_transfer'] as const satisfies readonly DeskPaymentMethod[];
const methodOptions = deskMethods.map((method) => ({ value: method, label: paymentMethodLabels[method] }));

type PaymentValues = { amount: string; method: DeskPaymentMethod; reference: string };

/** Take Payment: the amount pays the open invoices oldest first; what is left over becomes credit. */
export function TakePaymentButton({ customerId, onMoneyMoved }: { customerId: string; onMoneyMoved: () => unknown }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="primary" onClick={() => setOpen(true)}>
        Take Payment
      </Button>
      <FormDialog open={open} title="Take Payment" width={480} onClose={() => setOpen(false)}>
        <TakePaymentForm customerId={customerId} onMoneyMoved={onMoneyMoved} onDone={() => setOpen(false)} />
      </FormDialog>
    </>
  );
}

/** Made anew on each opening; the payment's key is the attempt's (attemptKey): a double submit or a retry pays once. */
function TakePaymentForm({ customerId, onMoneyMoved, onDone }: { customerId: string; onMoneyMoved: () => unknown; onDone: () => void }) {
  const [form] = Form.useForm<PaymentValues>();
  const take = useTakeDeskPayment(customerId, onMoneyMoved);
  const toast = useToast();
  const method = Form.useWatch('method', form);
  const save = ({ amount, method, reference }: PaymentValues) =>
    take.mutate(
      { amount, method, reference: reference || null },
      {
        onSuccess: (receipt) => {
          const paid = receipt.applied.map((a) => `${a.invoiceNumber} ${formatDollars(a.amount)}`).join(', ');
          const credit = receipt.credited !== '0.00' ? `${paid ? '; ' : ''}${formatDollars(receipt.credited)} kept as credit` : '';
          toast.success(`Payment recorded: ${paid}${credit}`);
          onDone();
        },
        onError: (error) => toast.failure('Failed to record the payment', error),
      },
    );
  return (
    <DialogForm<PaymentValues>
      form={form}
      initialValues={{ amount: '', method: 'cash', reference: '' }}
      onFinish={save}
      saving={take.isPending}
      submitLabel="Record Payment"
      onCancel={onDone}
    >
      <FieldGrid>
        <GridField label="Amount" name="amount" required rules={[contractRule('Amount', DeskPaymentRequest.shape.amount)]}>
          <Input prefix="$" placeholder="0.00" inputMode="decimal" autoComplete="off" />
        </GridField>
        <GridField label="Method" name="method">
          <Select options={methodOptions} />
        </GridField>
        <GridField
          wide
          label={method === 'check' ? 'Check Number' : 'Reference'}
          name="reference"
          rules={[contractRule('Reference', DeskPaymentRequest.shape.reference)]}
        >
          <Input autoComplete="off" />
        </GridField>
      </FieldGrid>
    </DialogForm>
  );
}

type CreditValues = { amount: string; reason: string };

/** Give Credit: money on the renter's account, with a reason; it pays what is open, then the next invoice. */
export function GiveCreditButton({ customerId, onMoneyMoved }: { customerId: string; onMoneyMoved: () => unknown }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Give Credit</Button>
      <FormDialog open={open} title="Give Credit" width={480} onClose={() => setOpen(false)}>
        <GiveCreditForm customerId={customerId} onMoneyMoved={onMoneyMoved} onDone={() => setOpen(false)} />
      </FormDialog>
    </>
  );
}

function GiveCreditForm({ customerId, onMoneyMoved, onDone }: { customerId: string; onMoneyMoved: () => unknown; onDone: () => void }) {
  const [form] = Form.useForm<CreditValues>();
  const give = useGiveCredit(customerId, onMoneyMoved);
  const toast = useToast();
  const save = (request: CreditValues) => give.mutate(request, toast.outcome('Credit given', 'Failed to give the credit', onDone));
  return (
    <DialogForm<CreditValues>
      form={form}
      initialValues={{ amount: '', reason: '' }}
      onFinish={save}
      saving={give.isPending}
      submitLabel="Give Credit"
      onCancel={onDone}
    >
      <FieldGrid>
        <GridField label="Amount" name="amount" required rules={[contractRule('Amount', CreditRequest.shape.amount)]}>
          <Input prefix="$" placeholder="0.00" inputMode="decimal" autoComplete="off" />
        </GridField>
        <GridField wide label="Reason" name="reason" required rules={[contractRule('Reason', CreditRequest.shape.reason)]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
        </GridField>
      </FieldGrid>
    </DialogForm>
  );
}

type CreditRefundValues = { amount: string; method: DeskPaymentMethod; reference: string; reason: string };

/** Refund Credit: hands credit on the renter's account back to them (never more than the credit), with a reason. */
export function RefundCreditButton({ customerId, onMoneyMoved }: { customerId: string; onMoneyMoved: () => unknown }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Refund Credit</Button>
      <FormDialog open={open} title="Refund Credit" width={480} onClose={() => setOpen(false)}>
        <RefundCreditForm customerId={customerId} onMoneyMoved={onMoneyMoved} onDone={() => setOpen(false)} />
      </FormDialog>
    </>
  );
}

function RefundCreditForm({ customerId, onMoneyMoved, onDone }: { customerId: string; onMoneyMoved: () => unknown; onDone: () => void }) {
  const [form] = Form.useForm<CreditRefundValues>();
  const refund = useRefundCredit(customerId, onMoneyMoved);
  const toast = useToast();
  const method = Form.useWatch('method', form);
  const save = ({ reference, ...request }: CreditRefundValues) =>
    refund.mutate(
      { ...request, reference: reference || null },
      toast.outcome(`Credit of ${formatDollars(request.amount)} refunded`, 'Failed to refund the credit', onDone),
    );
  return (
    <DialogForm<CreditRefundValues>
      form={form}
      initialValues={{ amount: '', method: 'check', reference: '', reason: '' }}
      onFinish={save}
      saving={refund.isPending}
      submitLabel="Refund Credit"
      danger
      onCancel={onDone}
    >
      <FieldGrid>
        <GridField label="Amount" name="amount" required rules={[contractRule('Amount', CreditRefundRequest.shape.amount)]}>
          <Input prefix="$" placeholder="0.00" inputMode="decimal" autoComplete="off" />
        </GridField>
        <GridField label="Method" name="method">
          <Select options={methodOptions} />
        </GridField>
        <GridField
          wide
          label={method === 'check' ? 'Check Number' : 'Reference'}
          name="reference"
          rules={[contractRule('Reference', CreditRefundRequest.shape.reference)]}
        >
          <Input autoComplete="off" />
        </GridField>
        <GridField wide label="Reason" name="reason" required rules={[contractRule('Reason', CreditRefundRequest.shape.reason)]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
        </GridField>
      </FieldGrid>
    </DialogForm>
  );
}
