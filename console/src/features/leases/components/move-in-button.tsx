import { LoginOutlined, UserAddOutlined } from '@ant-design/icons';
import type { DeskPaymentRequest, DeskReceipt } from '@storage/contracts/billing';
import type { DeskPaymentMethod } from '@storage/contracts/enums';
import { StartLeaseRequest } from '@storage/contracts/leases';
import { formatDollars, toCents } from '@storage/contracts/money';
import { serverMessage } from '@storage/web-client/api';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Flex, Form, Input, Typography } from 'antd';
import { type ComponentType, useCallback, useRef, useState } from 'react';
import { DeskPaymentFields } from '../../../components/desk-payment-fields.tsx';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import type { SearchSelectOption } from '../../../components/search-select.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useCanChange, useCanTakePayments } from '../../../lib/staff-permissions.ts';
import { useToast } from '../../../lib/toast.tsx';
import type { MoveInQuoteTerms } from '../api/get-move-in-quote.ts';
import { useStartLease } from '../api/start-lease.ts';
import { todayLocalIsoDate } from '../local-date.ts';
import { AvailableUnitPicker } from './available-unit-picker.tsx';
import { MoveInQuotePanel } from './move-in-quote.tsx';

type MoveInValues = {
  customerId?: string;
  unitId?: string;
  monthlyRate: string;
  depositAmount: string | null;
  startDate: string;
  takePayment: boolean;
  paymentAmount: string;
  paymentMethod: DeskPaymentMethod;
  paymentReference: string;
};

const fieldSchemas = StartLeaseRequest.shape;

/** An empty optional amount is no amount at all. */
const emptyAsNull = (value: string) => (value.trim() === '' ? null : value);

/** The customer field of the form; the screen plugs in the customers feature's picker. */
export type MoveInCustomerPicker = ComponentType<{
  value?: string;
  onChange?: (customerId: string) => void;
  id?: string;
  fixedOptions?: SearchSelectOption[];
}>;

/** The Add Customer dialog, opened over the Move In; `onCreated` names the customer added, as the picker names them. */
export type MoveInNewCustomerDialog = ComponentType<{ open: boolean; onClose: () => void; onCreated: (customer: SearchSelectOption) => void }>;

/** Takes a desk payment for a renter, once per attempt (a retry or a double submit pays once); the screen plugs in the customers feature's. */
export type MoveInPayment = (customerId: string, request: DeskPaymentRequest) => Promise<DeskReceipt>;

type MoveInButtonProps = {
  customerPicker: MoveInCustomerPicker;
  /** Without it, no New customer beside the picker. */
  newCustomerDialog?: MoveInNewCustomerDialog;
  /** Without it, no payment at move-in. */
  takePayment?: MoveInPayment;
  /** A lease was made (the units and the occupancy changed). */
  onMovedIn: () => void;
};

export function MoveInButton({ customerPicker, newCustomerDialog, takePayment, onMovedIn }: MoveInButtonProps) {
  const [open, setOpen] = useState(false);
  const canChange = useCanChange();
  if (!canChange) return null;
  return (
    <>
      <Button type="primary" icon={<LoginOutlined />} onClick={() => setOpen(true)}>
        Move In
      </Button>
      <FormDialog open={open} title="Move In" width={600} onClose={() => setOpen(false)}>
        <MoveInForm
          customerPicker={customerPicker}
          newCustomerDialog={newCustomerDialog}
          takePayment={takePayment}
          onDone={() => setOpen(false)}
          onMovedIn={onMovedIn}
        />
      </FormDialog>
    </>
  );
}

type MoveInFormProps = Omit<MoveInButtonProps, 'onMovedIn'> & { onDone: () => void; onMovedIn: () => void };

/** A receipt in words: each invoice it paid and what it kept as credit. */
function receiptWords(receipt: DeskReceipt): string {
  const paid = receipt.applied.map((a) => `${a.invoiceNumber} ${formatDollars(a.amount)}`).join(', ');
  const credit = toCents(receipt.credited) > 0n ? `${paid ? '; ' : ''}${formatDollars(receipt.credited)} kept as credit` : '';
  return `${paid}${credit}`;
}

/**
 * Made anew on each opening. With a payment, the Move In is made first and then the payment taken
 * for the new renter's account, each under its own attempt key: a double submit or a retry makes
 * one lease and pays once. A payment refused after the lease is made leaves the lease (the renter
 * has moved in; the money stays owed) and says so.
 */
function MoveInForm({ customerPicker: CustomerPicker, newCustomerDialog: NewCustomerDialog, takePayment, onDone, onMovedIn }: MoveInFormProps) {
  const [form] = Form.useForm<MoveInValues>();
  const startLease = useStartLease();
  const payment = useMutation({
    mutationFn: ({ customerId, request }: { customerId: string; request: DeskPaymentRequest }) => takePayment!(customerId, request),
  });
  const mayTakePayments = useCanTakePayments() && takePayment !== undefined;
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const toast = useToast();
  const [addingCustomer, setAddingCustomer] = useState(false);
  const [addedCustomer, setAddedCustomer] = useState<SearchSelectOption | null>(null);
  /** The server's words for a payment refused after the lease was made. */
  const [unpaid, setUnpaid] = useState<string | null>(null);

  const unitId = Form.useWatch('unitId', form);
  const startDate = Form.useWatch('startDate', form);
  const monthlyRate = Form.useWatch('monthlyRate', form) ?? '';
  const depositAmount = Form.useWatch('depositAmount', form) ?? null;
  const takingPayment = (Form.useWatch('takePayment', form) ?? true) && mayTakePayments;
  const method = Form.useWatch('paymentMethod', form);
  // Quoted once a unit and a day are chosen, at the rate and deposit as typed (checked as the Move In checks them).
  const quoteTerms: MoveInQuoteTerms | null =
    unitId && startDate && fieldSchemas.startDate.safeParse(startDate).success
      ? { unitId, startDate, ...(monthlyRate.trim() && { monthlyRate: monthlyRate.trim() }), ...(depositAmount && { depositAmount: depositAmount.trim() }) }
      : null;
  const unquotable =
    (quoteTerms?.monthlyRate !== undefined && !fieldSchemas.monthlyRate.safeParse(quoteTerms.monthlyRate).success) ||
    (quoteTerms?.depositAmount !== undefined && !fieldSchemas.depositAmount.safeParse(quoteTerms.depositAmount).success);

  // The amount follows the quote's Due today until staff type one of their own (clearing it lets it follow again).
  const amountTyped = useRef(false);
  const followQuote = useCallback(
    (totalDueToday: string) => {
      if (!amountTyped.current) form.setFieldValue('paymentAmount', toCents(totalDueToday) > 0n ? totalDueToday : '');
    },
    [form],
  );

  // A second press before the form shows it is saving (a double click) is the same Move In: it is ignored.
  const saving = useRef(false);
  const save = async (values: MoveInValues) => {
    if (saving.current) return;
    saving.current = true;
    try {
      await moveIn(values);
    } finally {
      saving.current = false;
    }
  };

  const moveIn = async ({ customerId, unitId, monthlyRate, depositAmount, startDate, ...pay }: MoveInValues) => {
    let lease: Awaited<ReturnType<typeof startLease.mutateAsync>>;
    try {
      lease = await startLease.mutateAsync({ customerId: customerId!, unitId: unitId!, monthlyRate, depositAmount, startDate });
    } catch (error) {
      toast.failure('Failed to create lease', error as Error);
      return;
    }
    onMovedIn();
    if (!(pay.takePayment && mayTakePayments)) {
      toast.success('Lease created successfully');
      onDone();
      return;
    }
    try {
      const receipt = await payment.mutateAsync({
        customerId: lease.customer.id,
        request: { amount: pay.paymentAmount.trim(), method: pay.paymentMethod, reference: pay.paymentReference.trim() || null },
      });
      toast.success(`Lease created; payment recorded: ${receiptWords(receipt)}`);
      onDone();
    } catch (error) {
      setUnpaid(serverMessage(error as Error).replace(/\.$/, ''));
    }
  };

  if (unpaid !== null) {
    return (
      <>
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 16, marginBottom: 16 }}
          title={`Lease created, but the payment was not recorded: ${unpaid}. Take it from the customer's page.`}
        />
        <Flex justify="flex-end">
          <Button type="primary" onClick={onDone}>
            Close
          </Button>
        </Flex>
      </>
    );
  }

  return (
    <>
      <DialogForm<MoveInValues>
        form={form}
        initialValues={{
          monthlyRate: '',
          depositAmount: null,
          startDate: todayLocalIsoDate(),
          takePayment: true,
          paymentAmount: '',
          paymentMethod: 'cash',
          paymentReference: '',
        }}
        onValuesChange={(changed: Partial<MoveInValues>) => {
          if (changed.paymentAmount !== undefined) amountTyped.current = changed.paymentAmount.trim() !== '';
        }}
        onFinish={save}
        saving={startLease.isPending || payment.isPending}
        submitLabel="Move In"
        onCancel={onDone}
      >
        <Form.Item label="Customer" htmlFor="customerId" required>
          <Flex gap={8} align="center">
            <div style={{ flex: 1, minWidth: 0 }}>
              <Form.Item name="customerId" noStyle rules={[{ required: true, message: 'Choose the customer who moves in' }]}>
                <CustomerPicker fixedOptions={addedCustomer ? [addedCustomer] : undefined} />
              </Form.Item>
            </div>
            {NewCustomerDialog && (
              <Button icon={<UserAddOutlined />} onClick={() => setAddingCustomer(true)}>
                New customer
              </Button>
            )}
          </Flex>
        </Form.Item>
        <Form.Item label="Unit" name="unitId" rules={[{ required: true, message: 'Choose an available unit' }]}>
          <AvailableUnitPicker
            facilityId={facilityId}
            onUnitChosen={(unit) => {
              form.setFieldValue('monthlyRate', unit.monthlyRate);
              void form.validateFields(['monthlyRate']);
            }}
          />
        </Form.Item>
        <FieldGrid>
          <GridField label="Monthly Rate" name="monthlyRate" required rules={[contractRule('Monthly rate', fieldSchemas.monthlyRate)]}>
            <Input prefix="$" inputMode="decimal" placeholder="120.00" autoComplete="off" />
          </GridField>
          <GridField label="Deposit" name="depositAmount" normalize={emptyAsNull} rules={[contractRule('Deposit', fieldSchemas.depositAmount)]}>
            <Input prefix="$" inputMode="decimal" placeholder="0.00" autoComplete="off" />
          </GridField>
          <GridField label="Start Date" name="startDate" required rules={[contractRule('Start date', fieldSchemas.startDate)]}>
            <Input type="date" />
          </GridField>
        </FieldGrid>
        <MoveInQuotePanel terms={quoteTerms} invalid={unquotable} onTotal={followQuote} />
        {mayTakePayments && (
          <section aria-label="Payment at move-in">
            <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
              Payment at move-in
            </Typography.Text>
            <Form.Item name="takePayment" valuePropName="checked" style={{ marginBottom: takingPayment ? 8 : 16 }}>
              <Checkbox>Take payment now</Checkbox>
            </Form.Item>
            {takingPayment && (
              <DeskPaymentFields
                names={{ amount: 'paymentAmount', method: 'paymentMethod', reference: 'paymentReference' }}
                method={method}
                amountExtra="Less than due today leaves the rest owed."
              />
            )}
          </section>
        )}
      </DialogForm>
      {NewCustomerDialog && (
        <NewCustomerDialog
          open={addingCustomer}
          onClose={() => setAddingCustomer(false)}
          onCreated={(customer) => {
            setAddedCustomer(customer);
            form.setFieldValue('customerId', customer.value);
            void form.validateFields(['customerId']);
          }}
        />
      )}
    </>
  );
}
