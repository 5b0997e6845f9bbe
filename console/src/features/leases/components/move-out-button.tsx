import { LogoutOutlined } from '@ant-design/icons';
import { type DeskPaymentMethod, paymentMethodLabels } from '@storage/contracts/enums';
import { EndLeaseRequest, type Lease } from '@storage/contracts/leases';
import { formatDollars, toCents } from '@storage/contracts/money';
import { Button, Form, Input, Radio, Select, Typography } from 'antd';
import { useState } from 'react';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useCanGiveMoneyBack } from '../../../lib/staff-permissions.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useEndLease } from '../api/end-lease.ts';
import { todayLocalIsoDate } from '../local-date.ts';

type MoveOutValues = { endDate: string; deposit: 'return' | 'apply'; depositMethod: DeskPaymentMethod };

const depositMethods = ['check', 'cash', 'bank_transfer', 'card_present'] as const satisfies readonly DeskPaymentMethod[];
const depositMethodOptions = depositMethods.map((method) => ({ value: method, label: paymentMethodLabels[method] }));

export function MoveOutButton({ lease, onMovedOut }: { lease: Lease; onMovedOut: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="text" danger icon={<LogoutOutlined />} onClick={() => setOpen(true)}>
        Move Out
      </Button>
      <FormDialog open={open} title="Move Out" width={440} onClose={() => setOpen(false)}>
        <MoveOutForm
          lease={lease}
          onDone={() => setOpen(false)}
          onMovedOut={() => {
            onMovedOut();
            setOpen(false);
          }}
        />
      </FormDialog>
    </>
  );
}

function MoveOutForm({ lease, onDone, onMovedOut }: { lease: Lease; onDone: () => void; onMovedOut: () => void }) {
  const endLease = useEndLease();
  const toast = useToast();
  const [form] = Form.useForm<MoveOutValues>();
  const today = todayLocalIsoDate();
  const { customer, unit } = lease;
  const hasDeposit = lease.depositAmount !== null && toCents(lease.depositAmount) > 0n;
  const deposit = Form.useWatch('deposit', form);
  // Handing a deposit back is money going back: owners and managers.
  const canReturn = useCanGiveMoneyBack();

  // The deposit the renter paid: returned to them, or applied to what they still owe (staff choose).
  const save = ({ endDate, deposit, depositMethod }: MoveOutValues) =>
    endLease.mutate(
      { leaseId: lease.id, endDate, ...(hasDeposit && { deposit, ...(deposit === 'return' && { depositMethod }) }) },
      toast.outcome('Lease ended successfully', 'Failed to end lease', onMovedOut),
    );

  return (
    <DialogForm<MoveOutValues>
      form={form}
      // biome-ignore lint/complexity/useMathMinMax: ISO date strings, not numbers; Math.max would give NaN
      initialValues={{ endDate: today < lease.startDate ? lease.startDate : today, deposit: 'apply', depositMethod: 'check' }}
      onFinish={save}
      saving={endLease.isPending}
      submitLabel="Move Out"
      danger
      onCancel={onDone}
    >
      <Typography.Paragraph>
        End the lease of {customer.firstName} {customer.lastName} on unit {unit.unitNumber}? The unit becomes available for the next tenant.
      </Typography.Paragraph>
      <Form.Item label="End Date" name="endDate" required rules={[contractRule('End date', EndLeaseRequest.shape.endDate)]}>
        <Input type="date" min={lease.startDate} />
      </Form.Item>
      {hasDeposit && (
        <Form.Item label={`Deposit (${formatDollars(lease.depositAmount!)}, as far as it was paid)`} name="deposit">
          <Radio.Group
            options={[
              { value: 'apply', label: 'Apply to the balance' },
              { value: 'return', label: 'Return to the renter', disabled: !canReturn },
            ]}
          />
        </Form.Item>
      )}
      {hasDeposit && deposit === 'return' && (
        <Form.Item label="Returned By" name="depositMethod">
          <Select options={depositMethodOptions} />
        </Form.Item>
      )}
    </DialogForm>
  );
}
