import { SwapOutlined } from '@ant-design/icons';
import { ChangeCustomerStandingRequest, type ChosenCustomerStatus, type Customer } from '@storage/contracts/customers';
import { Button, Input, Select, Typography } from 'antd';
import { useState } from 'react';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { chosenCustomerStatusOptions, customerStatusLabel } from '../../../lib/customer-status.ts';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useChangeCustomerStanding } from '../api/change-standing.ts';

type StandingValues = { status?: ChosenCustomerStatus; reason: string };

/** Staff mark a customer inactive or terminated, or active again, saying why; overdue follows the invoices. */
export function ChangeStandingButton({ customer }: { customer: Customer }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {/* Beside the status badge, "Change" says enough and keeps the card's title whole on a phone. */}
      <Button size="small" icon={<SwapOutlined />} aria-label="Change Status" onClick={() => setOpen(true)}>
        Change
      </Button>
      <FormDialog open={open} title="Change Customer Status" width={480} onClose={() => setOpen(false)}>
        <StandingForm customer={customer} onDone={() => setOpen(false)} />
      </FormDialog>
    </>
  );
}

/** Made anew on each opening, with its own idempotency key. */
function StandingForm({ customer, onDone }: { customer: Customer; onDone: () => void }) {
  const [key] = useState(() => crypto.randomUUID());
  const change = useChangeCustomerStanding(customer.id);
  const toast = useToast();
  const save = ({ status, reason }: StandingValues) => {
    if (!status) return;
    change.mutate({ request: { status, reason }, key }, toast.outcome(`Status set to ${customerStatusLabel(status)}`, 'Failed to change the status', onDone));
  };
  return (
    <DialogForm<StandingValues>
      name="customer-standing"
      initialValues={{ status: undefined, reason: '' }}
      onFinish={save}
      saving={change.isPending}
      submitLabel="Change Status"
      onCancel={onDone}
    >
      <Typography.Paragraph type="secondary">Overdue is not chosen here: it follows the invoices.</Typography.Paragraph>
      <FieldGrid>
        <GridField wide label="Status" name="status" required rules={[{ required: true, message: 'Status is required' }]}>
          <Select
            options={chosenCustomerStatusOptions.map((option) => ({ ...option, disabled: option.value === customer.status }))}
            placeholder="Choose a status"
          />
        </GridField>
        <GridField
          wide
          label="Reason"
          name="reason"
          required
          extra="For example, moved out, or broke the rental agreement"
          rules={[contractRule('Reason', ChangeCustomerStandingRequest.shape.reason)]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
        </GridField>
      </FieldGrid>
    </DialogForm>
  );
}
