import { ReasonRequest } from '@storage/contracts/billing';
import { DeskPaymentMethod, type InvoiceStatus, paymentMethodLabels } from '@storage/contracts/enums';
import { type CreateInvoiceRequest as CreateInvoiceBody, CreateInvoiceRequest, PaidAtCreation, statusesWithReason } from '@storage/contracts/invoices';
import { Form, Input, Select } from 'antd';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { formatDollars } from '../../../lib/format.ts';
import { useCanGiveMoneyBack } from '../../../lib/staff-permissions.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useCreateInvoice } from '../api/create-invoice.ts';
import { useCustomerLeases } from '../api/get-customer-leases.ts';
import { invoiceStatusOptions } from '../invoice-status.ts';
import { CustomerPicker } from './customer-picker.tsx';

const DEFAULT_DUE_IN_DAYS = 30;

type InvoiceFormValues = {
  invoiceNumber: string;
  customerId: string | undefined;
  leaseId: string | undefined;
  amount: string;
  dueDate: string;
  status: InvoiceStatus;
  description: string;
  /** Asked when the status is paid: how the desk was paid. */
  paymentMethod: DeskPaymentMethod;
  paymentReference: string;
  /** Asked when the status is cancelled or written off. */
  reason: string;
};

const fieldSchemas = CreateInvoiceRequest.shape;

/** The ways the desk is paid: cash, a check, a card at the desk, a bank transfer. */
const deskMethodOptions = DeskPaymentMethod.options.map((method) => ({ value: method, label: paymentMethodLabels[method] }));

/** The request for what the form holds: the payment only for a paid invoice, the reason only for a cancelled or written-off one. */
function requestOf({ customerId, leaseId, paymentMethod, paymentReference, reason, ...values }: InvoiceFormValues): CreateInvoiceBody {
  return {
    ...values,
    customerId: customerId ?? '',
    leaseId: leaseId ?? null,
    ...(values.status === 'paid' && { payment: { method: paymentMethod, reference: paymentReference || null } }),
    ...(statusesWithReason.includes(values.status) && { reason }),
  };
}

/** YYYY-MM-DD of the local calendar day `days` from now. */
function localDateFromNow(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return [date.getFullYear(), date.getMonth() + 1, date.getDate()].map((part) => String(part).padStart(2, '0')).join('-');
}

/** Spec §5: 'INV-' plus the current epoch milliseconds, due 30 days from now, a draft. */
function newInvoice(): InvoiceFormValues {
  return {
    invoiceNumber: `INV-${Date.now()}`,
    customerId: undefined,
    leaseId: undefined,
    amount: '',
    dueDate: localDateFromNow(DEFAULT_DUE_IN_DAYS),
    status: 'draft',
    description: '',
    paymentMethod: 'cash',
    paymentReference: '',
    reason: '',
  };
}

type CreateInvoiceDialogProps = { open: boolean; onClose: () => void };

export function CreateInvoiceDialog({ open, onClose }: CreateInvoiceDialogProps) {
  return (
    <FormDialog open={open} title="Create Invoice" width={640} onClose={onClose}>
      <CreateInvoiceForm onDone={onClose} />
    </FormDialog>
  );
}

/** Rebuilt on every opening of the dialog, so it starts with a fresh number and due date. */
function CreateInvoiceForm({ onDone }: { onDone: () => void }) {
  const [form] = Form.useForm<InvoiceFormValues>();
  const createInvoice = useCreateInvoice();
  const toast = useToast();

  const canGiveMoneyBack = useCanGiveMoneyBack();
  const status = Form.useWatch('status', form);
  const paymentMethod = Form.useWatch('paymentMethod', form);
  // A void and a write-off are for owners and managers (the server refuses the others).
  const statusOptions = invoiceStatusOptions.map((option) => ({ ...option, disabled: !canGiveMoneyBack && statusesWithReason.includes(option.value) }));

  const save = (values: InvoiceFormValues) =>
    createInvoice.mutate(requestOf(values), toast.outcome('Invoice created successfully', 'Failed to create invoice', onDone));

  return (
    <DialogForm<InvoiceFormValues>
      form={form}
      initialValues={newInvoice()}
      // A lease belongs to one customer: choosing another customer clears it.
      onValuesChange={(changed) => {
        if ('customerId' in changed) form.setFieldValue('leaseId', undefined);
      }}
      onFinish={save}
      saving={createInvoice.isPending}
      submitLabel="Create Invoice"
      onCancel={onDone}
    >
      <FieldGrid>
        <GridField label="Invoice Number" name="invoiceNumber" required rules={[contractRule('Invoice number', fieldSchemas.invoiceNumber)]}>
          <Input autoComplete="off" />
        </GridField>
        <GridField label="Due Date" name="dueDate" required rules={[contractRule('Due date', fieldSchemas.dueDate)]}>
          <Input type="date" />
        </GridField>
        <GridField wide label="Customer" name="customerId" rules={[{ required: true, message: 'Choose the customer' }]}>
          <CustomerPicker />
        </GridField>
        <LeaseField />
        <GridField label="Amount" name="amount" required rules={[contractRule('Amount', fieldSchemas.amount)]}>
          <Input prefix="$" placeholder="0.00" inputMode="decimal" autoComplete="off" />
        </GridField>
        <GridField label="Status" name="status">
          <Select options={statusOptions} />
        </GridField>
        {status === 'paid' && (
          <>
            <GridField label="Payment Method" name="paymentMethod">
              <Select options={deskMethodOptions} />
            </GridField>
            <GridField
              label={paymentMethod === 'check' ? 'Check Number' : 'Reference'}
              name="paymentReference"
              rules={[contractRule('Reference', PaidAtCreation.shape.reference)]}
            >
              <Input autoComplete="off" />
            </GridField>
          </>
        )}
        {status !== undefined && statusesWithReason.includes(status) && (
          <GridField wide label="Reason" name="reason" required rules={[contractRule('Reason', ReasonRequest.shape.reason)]}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
          </GridField>
        )}
        <GridField wide label="Description" name="description" rules={[contractRule('Description', fieldSchemas.description)]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
        </GridField>
      </FieldGrid>
    </DialogForm>
  );
}

/** The lease an invoice bills, from the chosen customer's leases (optional): a linked invoice counts on its lease card. */
function LeaseField() {
  const form = Form.useFormInstance<InvoiceFormValues>();
  const customerId = Form.useWatch('customerId', form);
  const leases = useCustomerLeases(customerId);
  const options = (leases.data ?? []).map((lease) => ({
    value: lease.id,
    label: `Unit ${lease.unit.unitNumber} · ${formatDollars(lease.monthlyRate)}/month · ${lease.isActive ? 'active' : 'ended'}`,
  }));
  return (
    <GridField wide label="Lease" name="leaseId">
      <Select
        allowClear
        disabled={!customerId}
        loading={leases.isFetching}
        options={options}
        placeholder={!customerId ? 'Choose the customer first' : options.length === 0 && leases.isSuccess ? 'This customer has no lease' : 'No lease'}
      />
    </GridField>
  );
}
