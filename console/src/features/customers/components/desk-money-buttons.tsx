import { CreditRefundRequest, CreditRequest, creditRefundRefusal, type DeskPaymentPlan, DeskPaymentRequest } from '@storage/contracts/billing';
import type { CustomerAccount } from '@storage/contracts/customers';
import type { DeskPaymentMethod } from '@storage/contracts/enums';
import { formatDollars, fromCents, toCents } from '@storage/contracts/money';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Descriptions, Form, type FormRule, Input, Select, Skeleton, Table, type TableProps, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { DeskPaymentFields, deskMethodOptions } from '../../../components/desk-payment-fields.tsx';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useDeskPaymentPlan, useGiveCredit, useRefundCredit, useTakeDeskPayment } from '../api/desk.ts';
import { useCustomerAccount } from '../api/get-customer.ts';

/** An amount the payment contract takes (so one the server can plan); the form says why another is refused. */
const isPaymentAmount = (amount: string) => amount !== '' && DeskPaymentRequest.shape.amount.safeParse(amount).success;

/** What is owed or held, as a prefill: the figure when there is some, else nothing to take or hand back. */
const prefill = (amount: string) => (toCents(amount) > 0n ? amount : '');

/**
 * The top of each money dialog: the renter's balance and credit, as the customer page shows them
 * (the same query, so no second figure), then the form once they are known: a form made before
 * would prefill nothing. When they cannot be loaded that is said, and the form still works.
 */
function WithAccount({ customerId, children }: { customerId: string; children: (account: CustomerAccount | null) => ReactNode }) {
  const account = useCustomerAccount(customerId);
  if (account.isPending) return <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  return (
    <>
      {account.isError ? (
        <Alert type="error" showIcon title="Could not load the balance" description={serverMessage(account.error)} style={{ marginTop: 16 }} />
      ) : (
        <Descriptions
          size="small"
          // Side by side from a small tablet up; on a phone each figure keeps its line whole.
          column={{ xs: 1, sm: 2 }}
          style={{ marginTop: 16 }}
          data-testid="desk-account"
          items={[
            { key: 'balance', label: 'Outstanding Balance', children: formatDollars(account.data.openBalance) },
            { key: 'credit', label: 'Account Credit', children: formatDollars(account.data.credit) },
          ]}
        />
      )}
      {children(account.isError ? null : account.data)}
    </>
  );
}

type PaymentValues = { amount: string; method: DeskPaymentMethod; reference: string };

/**
 * Take Payment: the amount pays the open invoices oldest first; what is left over becomes credit.
 * It does not use the credit already on the account (the next invoice does), so it starts at the
 * whole outstanding balance.
 */
export function TakePaymentButton({ customerId, onMoneyMoved }: { customerId: string; onMoneyMoved: () => unknown }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="primary" onClick={() => setOpen(true)}>
        Take Payment
      </Button>
      <FormDialog open={open} title="Take Payment" width={480} onClose={() => setOpen(false)}>
        <WithAccount customerId={customerId}>
          {(account) => <TakePaymentForm customerId={customerId} account={account} onMoneyMoved={onMoneyMoved} onDone={() => setOpen(false)} />}
        </WithAccount>
      </FormDialog>
    </>
  );
}

/** A desk money form: the renter, their account as loaded (null: it could not be), and what follows the money moving. */
type DeskFormProps = { customerId: string; account: CustomerAccount | null; onMoneyMoved: () => unknown; onDone: () => void };

/** Made anew on each opening; the payment's key is the attempt's (attemptKey): a double submit or a retry pays once. */
function TakePaymentForm({ customerId, account, onMoneyMoved, onDone }: DeskFormProps) {
  const [form] = Form.useForm<PaymentValues>();
  const take = useTakeDeskPayment(customerId, onMoneyMoved);
  const toast = useToast();
  const method = Form.useWatch('method', form);
  const amount = Form.useWatch('amount', form);
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
      initialValues={{ amount: account ? prefill(account.openBalance) : '', method: 'cash', reference: '' }}
      onFinish={save}
      saving={take.isPending}
      submitLabel="Record Payment"
      onCancel={onDone}
    >
      <DeskPaymentFields names={{ amount: 'amount', method: 'method', reference: 'reference' }} method={method} autoFocus />
      <PaymentPlan customerId={customerId} amount={amount ?? ''} />
    </DialogForm>
  );
}

/** How long the amount rests before its plan is asked for: one request per amount typed, not per key. */
const PLAN_DELAY_MS = 300;

const planColumns: TableProps<DeskPaymentPlan['applied'][number]>['columns'] = [
  { key: 'invoice', title: 'Invoice #', render: (_, row) => <span className="invoice-number">{row.invoiceNumber}</span> },
  { key: 'applied', title: 'Applied', align: 'right', render: (_, row) => formatDollars(row.amount) },
  {
    key: 'pays',
    title: 'Pays',
    render: (_, row) => (row.paysInFull ? 'In full' : `In part, ${formatDollars(fromCents(toCents(row.openBalance) - toCents(row.amount)))} still owed`),
  },
];

/**
 * Which invoices the amount typed would pay and what it would leave as credit, before it is taken,
 * as the server works it out (the one place that decides a payment's spread), following the amount.
 */
function PaymentPlan({ customerId, amount }: { customerId: string; amount: string }) {
  const typed = amount.trim();
  const settled = useDebouncedValue(typed, PLAN_DELAY_MS);
  const plan = useDeskPaymentPlan(customerId, isPaymentAmount(settled) ? settled : null);
  let shown: ReactNode;
  if (!isPaymentAmount(typed)) shown = <Typography.Text type="secondary">Enter an amount to see which invoices it pays.</Typography.Text>;
  else if (plan.isError) shown = <Alert type="warning" showIcon title="Could not work out which invoices it pays" description={serverMessage(plan.error)} />;
  else if (!plan.data) shown = <Skeleton active title={false} paragraph={{ rows: 2 }} />;
  else {
    const { applied, credited } = plan.data;
    shown = (
      <div style={{ opacity: plan.isPlaceholderData || typed !== settled ? 0.6 : 1 }}>
        {applied.length > 0 ? (
          <Table rowKey="invoiceId" columns={planColumns} dataSource={applied} pagination={false} size="small" data-testid="payment-plan" />
        ) : (
          <Typography.Text>No invoice is open.</Typography.Text>
        )}
        <Typography.Paragraph style={{ marginTop: 8, marginBottom: 0 }} data-testid="payment-plan-credit">
          Kept as credit: {formatDollars(credited)}
        </Typography.Paragraph>
      </div>
    );
  }
  return (
    <section aria-label="What this payment pays" aria-live="polite" style={{ marginBottom: 16 }}>
      <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
        What this payment pays
      </Typography.Text>
      {shown}
    </section>
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
        <WithAccount customerId={customerId}>
          {() => <GiveCreditForm customerId={customerId} onMoneyMoved={onMoneyMoved} onDone={() => setOpen(false)} />}
        </WithAccount>
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
          <Input prefix="$" placeholder="0.00" inputMode="decimal" autoComplete="off" autoFocus />
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
        <WithAccount customerId={customerId}>
          {(account) => <RefundCreditForm customerId={customerId} account={account} onMoneyMoved={onMoneyMoved} onDone={() => setOpen(false)} />}
        </WithAccount>
      </FormDialog>
    </>
  );
}

/** The account's credit caps the amount here as the server caps it; without the figures, the server's refusal says so. */
const withinCredit = (account: CustomerAccount): FormRule => ({
  validator: async (_rule, value: unknown) => {
    if (typeof value !== 'string' || !isPaymentAmount(value.trim())) return;
    const refusal = creditRefundRefusal(value.trim(), account.credit);
    if (refusal) throw new Error(`Amount ${refusal}`);
  },
});

function RefundCreditForm({ customerId, account, onMoneyMoved, onDone }: DeskFormProps) {
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
      initialValues={{ amount: account ? prefill(account.credit) : '', method: 'check', reference: '', reason: '' }}
      onFinish={save}
      saving={refund.isPending}
      submitLabel="Refund Credit"
      danger
      onCancel={onDone}
    >
      <FieldGrid>
        <GridField
          label="Amount"
          name="amount"
          required
          rules={[contractRule('Amount', CreditRefundRequest.shape.amount), ...(account ? [withinCredit(account)] : [])]}
        >
          <Input prefix="$" placeholder="0.00" inputMode="decimal" autoComplete="off" autoFocus />
        </GridField>
        <GridField label="Method" name="method">
          <Select options={deskMethodOptions} />
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
