import { LoginOutlined, UserAddOutlined } from '@ant-design/icons';
import type { DeskPaymentRequest, DeskReceipt } from '@storage/contracts/billing';
import type { DeskPaymentMethod } from '@storage/contracts/enums';
import { StartLeaseRequest } from '@storage/contracts/leases';
import type { MerchandiseQuote, MerchandiseSale, MerchandiseSaleRequest } from '@storage/contracts/merchandise';
import { formatDollars, toCents } from '@storage/contracts/money';
import { offeredPromotionLabel } from '@storage/contracts/promotions';
import type { MoveInQuote } from '@storage/contracts/quotes';
import { ApiError, serverMessage } from '@storage/web-client/api';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Flex, Form, Input, Select, Typography } from 'antd';
import { type ComponentType, useCallback, useRef, useState } from 'react';
import { Link } from 'wouter';
import { DeskPaymentFields } from '../../../components/desk-payment-fields.tsx';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import type { SearchSelectOption } from '../../../components/search-select.tsx';
import { attemptKey, attemptSettled } from '../../../lib/attempt-keys.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule, showRefusalOnField } from '../../../lib/form-rules.ts';
import { useCanChange, useCanTakePayments } from '../../../lib/staff-permissions.ts';
import { useToast } from '../../../lib/toast.tsx';
import { amountWithoutItems } from '../amount-without-items.ts';
import type { MoveInQuoteTerms } from '../api/get-move-in-quote.ts';
import { moveInScope, useStartLease } from '../api/start-lease.ts';
import { todayLocalIsoDate } from '../local-date.ts';
import { NO_PLAN, planOptions } from '../protection-words.ts';
import { AvailableUnitPicker } from './available-unit-picker.tsx';
import { MoveInQuotePanel, useTermsQuote } from './move-in-quote.tsx';
import { type Choice, choiceLabels, isChoiceRefused, useQuotedChoices } from './quoted-choices.ts';

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
  /** The items sold with the move-in (the Merchandise section keeps them). */
  merchandise?: unknown[];
};

const fieldSchemas = StartLeaseRequest.shape;

/** An empty optional amount is no amount at all. */
const emptyAsNull = (value: string) => (value.trim() === '' ? null : value);

/** The choices the quote and the Move In check against the unit and the day, by the field a refusal names. */
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

/** The items chosen at a move-in: complete lines and their quote (see ItemsQuote). */
export type MoveInMerchandiseChoice = {
  lines: { itemId: string; quantity: number }[];
  quote: MerchandiseQuote | null;
  current: boolean;
  error: string | null;
};

/**
 * Merchandise sold with the Move In, as the screen plugs in the merchandise feature's: `Section`, the
 * items of the unit's facility (in the form's `merchandise` list; nothing shown when it sells
 * nothing); `sell`, the desk sale under the key given (a sale sent again under it sells once).
 */
export type MoveInMerchandise = {
  Section: ComponentType<{ facilityId: string; onChosen: (chosen: MoveInMerchandiseChoice | null) => void }>;
  sell: (customerId: string, request: MerchandiseSaleRequest, key: string) => Promise<MerchandiseSale>;
};

type MoveInButtonProps = {
  customerPicker: MoveInCustomerPicker;
  /** Without it, no New customer beside the picker. */
  newCustomerDialog?: MoveInNewCustomerDialog;
  /** Without it, no payment at move-in. */
  takePayment?: MoveInPayment;
  /** Without it, no merchandise at move-in. */
  merchandise?: MoveInMerchandise;
  /** A lease was made (the units and the occupancy changed). */
  onMovedIn: () => void;
};

export function MoveInButton({ customerPicker, newCustomerDialog, takePayment, merchandise, onMovedIn }: MoveInButtonProps) {
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
          merchandise={merchandise}
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
 * A refusal that recorded nothing and would be the same if sent again: not a lost answer, a failure
 * of the server's, nor a 409 for the same request still running (a 409 naming a field refuses it).
 */
function refusedForGood(error: Error): boolean {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return false;
  if (error.status !== 409) return true;
  try {
    return typeof (JSON.parse(error.body) as { field?: unknown }).field === 'string';
  } catch {
    return false;
  }
}

/** What went wrong after the lease was made (null: it went through), and the receipt of what was paid. */
type AfterLease = { unsold: string | null; unpaid: string | null; paid: string | null };

/**
 * Made anew on each opening. In this order, each step only once the one before is answered:
 * 1. the lease, under the move-in's attempt key;
 * 2. the items chosen, sold to the new renter under a key derived from it: until the sale is
 *    answered the move-in's attempt stays, so a Move In sent again after a lost answer makes the
 *    same lease and the same sale (once each); a sale refused (too little stock left meanwhile)
 *    leaves the lease and says why;
 * 3. the payment, under its own attempt key, paying the renter's open invoices oldest first (the
 *    move-in's, then the items'); with the items unsold it covers the move-in only. A payment
 *    refused leaves the lease (the renter has moved in; the money stays owed) and says so.
 */
function MoveInForm({ customerPicker: CustomerPicker, newCustomerDialog: NewCustomerDialog, takePayment, merchandise, onDone, onMovedIn }: MoveInFormProps) {
  const [form] = Form.useForm<MoveInValues>();
  const startLease = useStartLease();
  const sale = useMutation({
    mutationFn: ({ customerId, request, key }: { customerId: string; request: MerchandiseSaleRequest; key: string }) =>
      merchandise!.sell(customerId, request, key),
  });
  const payment = useMutation({
    mutationFn: ({ customerId, request }: { customerId: string; request: DeskPaymentRequest }) => takePayment!(customerId, request),
  });
  const mayTakePayments = useCanTakePayments() && takePayment !== undefined;
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const toast = useToast();
  const [addingCustomer, setAddingCustomer] = useState(false);
  const [addedCustomer, setAddedCustomer] = useState<SearchSelectOption | null>(null);
  const [afterLease, setAfterLease] = useState<AfterLease | null>(null);
  /** The facility of the unit chosen, whose items the Merchandise section offers. */
  const [unitFacilityId, setUnitFacilityId] = useState<string | null>(null);
  const [chosenItems, setChosenItems] = useState<MoveInMerchandiseChoice | null>(null);

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
  const itemsFacilityId = merchandise && unitId ? unitFacilityId : null;
  const items = itemsFacilityId ? chosenItems : null;

  // What may be added, and a choice the quote refuses taken back (the unit or the day changed under it).
  const { offers, withdrawn, chosenAgain } = useQuotedChoices(form, quoted);

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

  const moveIn = async ({
    customerId,
    unitId,
    monthlyRate,
    depositAmount,
    startDate,
    protectionPlanId,
    promotionId,
    merchandise: _items,
    ...pay
  }: MoveInValues) => {
    const request: StartLeaseRequest = {
      customerId: customerId!,
      unitId: unitId!,
      monthlyRate,
      depositAmount,
      startDate,
      // A select not shown (nothing offered) holds no value: none.
      ...(protectionPlanId && { protectionPlanId }),
      ...(promotionId && { promotionId }),
    };
    const scope = moveInScope(request.unitId);
    const key = attemptKey(scope, request);

    // 1. The lease.
    let lease: Awaited<ReturnType<typeof startLease.mutateAsync>>;
    try {
      lease = await startLease.mutateAsync({ request, key });
    } catch (error) {
      attemptSettled(scope, error);
      showRefusalOnField(form, error as Error, choiceLabels);
      toast.failure('Failed to create lease', error as Error);
      return;
    }
    onMovedIn();

    // 2. The items, to the renter the lease names.
    let sold: MerchandiseSale | null = null;
    let unsold: string | null = null;
    if (items && items.lines.length > 0) {
      try {
        sold = await sale.mutateAsync({
          customerId: lease.customer.id,
          request: { facilityId: itemsFacilityId, lines: items.lines },
          key: `${key}:merchandise`,
        });
      } catch (error) {
        if (!refusedForGood(error as Error)) {
          // The attempt stays: Move In again gets this lease back and sells the items once.
          toast.failure('Lease created, but the items got no answer. Press Move In again to finish.', error as Error);
          return;
        }
        unsold = serverMessage(error as Error).replace(/\.$/, '');
      }
    }
    attemptSettled(scope);
    const itemsWords = sold ? `; items sold: invoice ${sold.invoiceNumber}` : '';

    // 3. The payment.
    if (!(pay.takePayment && mayTakePayments)) {
      if (unsold !== null) return setAfterLease({ unsold, unpaid: null, paid: null });
      toast.success(sold ? `Lease created${itemsWords}` : 'Lease created successfully');
      onDone();
      return;
    }
    const amount =
      unsold === null
        ? pay.paymentAmount.trim()
        : amountWithoutItems(pay.paymentAmount.trim(), quoted.current?.totalDueToday ?? null, items?.quote?.total ?? null);
    if (toCents(amount) <= 0n) return setAfterLease({ unsold, unpaid: null, paid: null });
    try {
      const receipt = await payment.mutateAsync({
        customerId: lease.customer.id,
        request: { amount, method: pay.paymentMethod, reference: pay.paymentReference.trim() || null },
      });
      if (unsold !== null) return setAfterLease({ unsold, unpaid: null, paid: receiptWords(receipt) });
      toast.success(`Lease created${itemsWords}; payment recorded: ${receiptWords(receipt)}`);
      onDone();
    } catch (error) {
      setAfterLease({ unsold, unpaid: serverMessage(error as Error).replace(/\.$/, ''), paid: null });
    }
  };

  if (afterLease !== null) {
    const { unsold, unpaid, paid } = afterLease;
    return (
      <>
        {unsold !== null && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 16, marginBottom: 16 }}
            title={`Lease created, but the items were not sold: ${unsold}.`}
            description={paid === null ? undefined : `Payment recorded for the move-in: ${paid}.`}
          />
        )}
        {unpaid !== null && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 16, marginBottom: 16 }}
            title={`${unsold === null ? 'Lease created, but the payment' : 'The payment'} was not recorded: ${unpaid}. Take it from the customer's page.`}
          />
        )}
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
          merchandise: [],
        }}
        onValuesChange={(changed: Partial<MoveInValues>) => {
          if (changed.paymentAmount !== undefined) amountTyped.current = changed.paymentAmount.trim() !== '';
          // A choice made again replaces the word that the last one was taken back.
          chosenAgain(changed);
        }}
        onFinish={save}
        saving={startLease.isPending || sale.isPending || payment.isPending}
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
              // Another facility's items are not sold here: those chosen go.
              if (unit.facilityId !== unitFacilityId) form.setFieldValue('merchandise', []);
              setUnitFacilityId(unit.facilityId);
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
        {merchandise && itemsFacilityId && <merchandise.Section facilityId={itemsFacilityId} onChosen={setChosenItems} />}
        <MoveInQuotePanel quoted={quoted} items={items} onTotal={followQuote} takenBack={isChoiceRefused} />
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
              ...offers.promotions.map((promotion) => ({ value: promotion.promotionId, label: offeredPromotionLabel(promotion) })),
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
