import { LoginOutlined, UserAddOutlined } from '@ant-design/icons';
import type { DeskPaymentRequest, DeskReceipt } from '@storage/contracts/billing';
import type { DeskPaymentMethod } from '@storage/contracts/enums';
import { StartLeaseRequest } from '@storage/contracts/leases';
import { formatDollars, toCents } from '@storage/contracts/money';
import type { MoveInQuote } from '@storage/contracts/quotes';
import { serverMessage } from '@storage/web-client/api';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Flex, Form, Input, Select, Typography } from 'antd';
import { type ComponentType, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { DeskPaymentFields } from '../../../components/desk-payment-fields.tsx';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import type { SearchSelectOption } from '../../../components/search-select.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule, refusalOfField, showRefusalOnField } from '../../../lib/form-rules.ts';
import { useCanChange, useCanTakePayments } from '../../../lib/staff-permissions.ts';
import { useToast } from '../../../lib/toast.tsx';
import type { MoveInQuoteTerms } from '../api/get-move-in-quote.ts';
import { useStartLease } from '../api/start-lease.ts';
import { todayLocalIsoDate } from '../local-date.ts';
import { NO_PLAN, planOptions } from '../protection-words.ts';
import { AvailableUnitPicker } from './available-unit-picker.tsx';
import { MoveInQuotePanel, useTermsQuote } from './move-in-quote.tsx';

type MoveInValues = {
  customerId?: string;
  unitId?: string;
  monthlyRate: string;
  depositAmount: string | null;
  startDate: string;
  /** NO_PLAN: none (as the selects hold it). */
  protectionPlanId: string;
  promotionId: string;
  takePayment: boolean;
  paymentAmount: string;
  paymentMethod: DeskPaymentMethod;
  paymentReference: string;
};

const fieldSchemas = StartLeaseRequest.shape;

/** An empty optional amount is no amount at all. */
const emptyAsNull = (value: string) => (value.trim() === '' ? null : value);

/** The choices the quote and the Move In check against the unit and the day, by the field a refusal names. */
export const choiceLabels = { protectionPlanId: 'Protection plan', promotionId: 'Promotion' } as const;
export type Choice = keyof typeof choiceLabels;
export const isChoiceRefused = (error: Error) => refusalOfField(error, choiceLabels) !== null;

/** Why a choice was taken back: what was chosen no longer applies to the unit or the day now chosen. */
export function withdrawnWords(field: Choice, offers: MoveInQuote['offers'] | null, chosen: string): string {
  if (field === 'promotionId') {
    const name = offers?.promotions.find((p) => p.promotionId === chosen)?.name;
    return `${name ?? 'The promotion'} does not apply to this unit and start date, so it was removed.`;
  }
  const name = offers?.plans.find((p) => p.planId === chosen)?.name;
  return `${name ? `The ${name} plan` : 'That plan'} is not offered for this unit, so it was removed.`;
}

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
  const protectionPlanId = Form.useWatch('protectionPlanId', { form, preserve: true }) ?? NO_PLAN;
  const promotionId = Form.useWatch('promotionId', { form, preserve: true }) ?? NO_PLAN;
  // Quoted once a unit and a day are chosen, at the rate and deposit as typed (checked as the Move In checks them), with the plan and promotion chosen.
  const quoteTerms: MoveInQuoteTerms | null =
    unitId && startDate && fieldSchemas.startDate.safeParse(startDate).success
      ? {
          unitId,
          startDate,
          ...(monthlyRate.trim() && { monthlyRate: monthlyRate.trim() }),
          ...(depositAmount && { depositAmount: depositAmount.trim() }),
          ...(protectionPlanId && { protectionPlanId }),
          ...(promotionId && { promotionId }),
        }
      : null;
  const unquotable =
    (quoteTerms?.monthlyRate !== undefined && !fieldSchemas.monthlyRate.safeParse(quoteTerms.monthlyRate).success) ||
    (quoteTerms?.depositAmount !== undefined && !fieldSchemas.depositAmount.safeParse(quoteTerms.depositAmount).success);
  const quoted = useTermsQuote(quoteTerms, unquotable);

  // What may be added: the last quote's offers, kept while the next loads or is refused.
  const [offers, setOffers] = useState<MoveInQuote['offers'] | null>(null);
  const answeredOffers = quoted.query.data?.offers;
  useEffect(() => {
    if (answeredOffers) setOffers(answeredOffers);
  }, [answeredOffers]);
  // A choice the quote refuses (the unit or the day changed under it) is taken back, and the field says so.
  const [withdrawn, setWithdrawn] = useState<Partial<Record<Choice, string>>>({});
  const refused = quoted.query.error;
  useEffect(() => {
    const refusal = refused && refusalOfField(refused, choiceLabels);
    if (!refusal) return;
    const field = refusal.field as Choice;
    const chosen: string = form.getFieldValue(field) ?? NO_PLAN;
    if (chosen === NO_PLAN) return;
    form.setFieldValue(field, NO_PLAN);
    setWithdrawn((notes) => ({ ...notes, [field]: withdrawnWords(field, offers, chosen) }));
  }, [refused, form, offers]);

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

  const moveIn = async ({ customerId, unitId, monthlyRate, depositAmount, startDate, protectionPlanId, promotionId, ...pay }: MoveInValues) => {
    let lease: Awaited<ReturnType<typeof startLease.mutateAsync>>;
    try {
      lease = await startLease.mutateAsync({
        customerId: customerId!,
        unitId: unitId!,
        monthlyRate,
        depositAmount,
        startDate,
        // A select not shown (nothing offered) holds no value: none.
        ...(protectionPlanId && { protectionPlanId }),
        ...(promotionId && { promotionId }),
      });
    } catch (error) {
      showRefusalOnField(form, error as Error, choiceLabels);
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
          protectionPlanId: NO_PLAN,
          promotionId: NO_PLAN,
          takePayment: true,
          paymentAmount: '',
          paymentMethod: 'cash',
          paymentReference: '',
        }}
        onValuesChange={(changed: Partial<MoveInValues>) => {
          if (changed.paymentAmount !== undefined) amountTyped.current = changed.paymentAmount.trim() !== '';
          // A choice made again replaces the word that the last one was taken back.
          for (const field of ['protectionPlanId', 'promotionId'] as const) {
            if (changed[field] !== undefined) setWithdrawn((notes) => ({ ...notes, [field]: undefined }));
          }
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
        {quoteTerms && offers && <MoveInChoices offers={offers} withdrawn={withdrawn} />}
        <MoveInQuotePanel quoted={quoted} onTotal={followQuote} takenBack={isChoiceRefused} />
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

const withdrawnStyle = { display: 'block', marginBottom: 16 } as const;

/** The protection plan and the promotion a Move In may add, from the quote's offers; a choice taken back says so under its field. */
export function MoveInChoices({ offers, withdrawn }: { offers: MoveInQuote['offers']; withdrawn: Partial<Record<Choice, string>> }) {
  const withdrawnNote = (field: Choice) =>
    withdrawn[field] && (
      <Typography.Text type="warning" style={withdrawnStyle} data-testid={`${field}-withdrawn`}>
        {withdrawn[field]}
      </Typography.Text>
    );
  return (
    <>
      {offers.plans.length > 0 ? (
        <Form.Item label="Protection Plan" name="protectionPlanId" extra={withdrawnNote('protectionPlanId')}>
          <Select options={planOptions(offers.plans)} />
        </Form.Item>
      ) : (
        <>
          <Typography.Paragraph type="secondary" data-testid="no-protection-plans">
            No protection plans are set up for this facility. <Link href="/settings">Settings</Link>
          </Typography.Paragraph>
          {withdrawnNote('protectionPlanId')}
        </>
      )}
      {offers.promotions.length > 0 ? (
        <Form.Item label="Promotion" name="promotionId" extra={withdrawnNote('promotionId')}>
          <Select
            options={[
              ...offers.promotions.map((promotion) => ({ value: promotion.promotionId, label: `${promotion.name}: ${promotion.words}` })),
              { value: NO_PLAN, label: 'No promotion' },
            ]}
          />
        </Form.Item>
      ) : (
        withdrawnNote('promotionId')
      )}
    </>
  );
}
