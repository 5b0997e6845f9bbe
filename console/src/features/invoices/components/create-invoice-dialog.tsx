import type { InvoiceStatus } from '@storage/contracts/enums';
import { CreateInvoiceRequest } from '@storage/contracts/invoices';
import { Button, Col, Flex, Form, Input, Modal, Row, Select } from 'antd';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useCreateInvoice } from '../api/create-invoice.ts';
import { invoiceStatusOptions } from '../invoice-status.ts';
import { CustomerPicker } from './customer-picker.tsx';

const DEFAULT_DUE_IN_DAYS = 30;

type InvoiceFormValues = {
  invoiceNumber: string;
  customerId: string | undefined;
  amount: string;
  dueDate: string;
  status: InvoiceStatus;
  description: string;
};

const fieldSchemas = CreateInvoiceRequest.shape;

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
    amount: '',
    dueDate: localDateFromNow(DEFAULT_DUE_IN_DAYS),
    status: 'draft',
    description: '',
  };
}

type CreateInvoiceDialogProps = { open: boolean; onClose: () => void };

/** Its form is rebuilt on every opening, so it starts with a fresh number and due date. */
export function CreateInvoiceDialog({ open, onClose }: CreateInvoiceDialogProps) {
  return (
    <Modal open={open} title="Create Invoice" footer={null} onCancel={onClose} destroyOnHidden width={640}>
      <CreateInvoiceForm onDone={onClose} />
    </Modal>
  );
}

function CreateInvoiceForm({ onDone }: { onDone: () => void }) {
  const createInvoice = useCreateInvoice();
  const toast = useToast();

  const save = ({ customerId, ...values }: InvoiceFormValues) =>
    createInvoice.mutate(
      { ...values, customerId: customerId ?? '' },
      {
        onSuccess: () => {
          toast.success('Invoice created successfully');
          onDone();
        },
        onError: (error) => toast.failure('Failed to create invoice', error),
      },
    );

  return (
    <Form<InvoiceFormValues>
      layout="vertical"
      initialValues={newInvoice()}
      onFinish={save}
      disabled={createInvoice.isPending}
      style={{ marginTop: 16 }}
    >
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item label="Invoice Number" name="invoiceNumber" required rules={[contractRule('Invoice number', fieldSchemas.invoiceNumber)]}>
            <Input autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Due Date" name="dueDate" required rules={[contractRule('Due date', fieldSchemas.dueDate)]}>
            <Input type="date" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label="Customer" name="customerId" rules={[{ required: true, message: 'Choose the customer' }]}>
            <CustomerPicker />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Amount" name="amount" required rules={[contractRule('Amount', fieldSchemas.amount)]}>
            <Input prefix="$" placeholder="0.00" inputMode="decimal" autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Status" name="status">
            <Select options={invoiceStatusOptions} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label="Description" name="description" rules={[contractRule('Description', fieldSchemas.description)]}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
          </Form.Item>
        </Col>
      </Row>
      <Flex justify="flex-end" gap={8}>
        <Button onClick={onDone}>Cancel</Button>
        <Button type="primary" htmlType="submit" loading={createInvoice.isPending}>
          Create Invoice
        </Button>
      </Flex>
    </Form>
  );
}
