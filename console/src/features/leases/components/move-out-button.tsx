import { LogoutOutlined } from '@ant-design/icons';
import { type DeskPaymentMethod, paymentMethodLabels } from '@storage/contracts/enums';
import { EndLeaseRequest, type Lease } from '@storage/contracts/leases';
import { formatDollars, toCents } from '@storage/contracts/money';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Form, Input, Radio, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { formatDate } from '../../../lib/format.ts';
import { useCanGiveMoneyBack } from '../../../lib/staff-permissions.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useEndLease, useLeaseMoveOut } from '../api/end-lease.ts';

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
  // Today in the lease's facility, not the browser's: a later end date schedules the move-out.
  const calendar = useLeaseMoveOut(lease.id);
  if (calendar.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (calendar.isError) return <Alert type="error" showIcon title="Could not load the lease's move-out" description={serverMessage(calendar.error)} />;
  return (
    <MoveOutFields lease={lease} today={calendar.data.today} scheduledFor={calendar.data.scheduled?.endDate ?? null} onDone={onDone} onMovedOut={onMovedOut} />
  );
}

function MoveOutFields({
  lease,
  today,
  scheduledFor,
  onDone,
  onMovedOut,
}: {
  lease: Lease;
  today: string;
  scheduledFor: string | null;
  onDone: () => void;
  onMovedOut: () => void;
}) {
  const endLease = useEndLease();
  const toast = useToast();
  const [form] = Form.useForm<MoveOutValues>();
  const { customer, unit } = lease;
  const hasDeposit = lease.depositAmount !== null && toCents(lease.depositAmount) > 0n;
  const deposit = Form.useWatch('deposit', form);
  const endDate = Form.useWatch('endDate', form);
  // ISO dates compare as text; an end date after the facility's today is scheduled, not done now.
  const later = typeof endDate === 'string' && endDate > today;
  // Handing a deposit back is money going back: owners and managers.
  const canReturn = useCanGiveMoneyBack();

  // The deposit the renter paid: returned to them, or applied to what they still owe (staff choose).
  const save = ({ endDate, deposit, depositMethod }: MoveOutValues) =>
    endLease.mutate(
      { leaseId: lease.id, endDate, ...(hasDeposit && { deposit, ...(deposit === 'return' && { depositMethod }) }) },
      endDate > today
        ? toast.outcome('Move-out scheduled', 'Failed to schedule the move-out', onMovedOut)
        : toast.outcome('Lease ended successfully', 'Failed to end lease', onMovedOut),
    );

  return (
    <DialogForm<MoveOutValues>
      form={form}
      initialValues={{ endDate: today < lease.startDate ? lease.startDate : today, deposit: 'apply', depositMethod: 'check' }}
      onFinish={save}
      saving={endLease.isPending}
      submitLabel={later ? 'Schedule Move-Out' : 'Move Out'}
      danger
      onCancel={onDone}
    >
      {later ? (
        <Typography.Paragraph>
          Move {customer.firstName} {customer.lastName} out of unit {unit.unitNumber} on {formatDate(endDate)}? Until then the lease stays active and billed up
          to that day, and the renter keeps the unit and their gate code; on that day the move-out happens by itself, the deposit as chosen here.
        </Typography.Paragraph>
      ) : (
        <Typography.Paragraph>
          End the lease of {customer.firstName} {customer.lastName} on unit {unit.unitNumber}? The unit becomes available for the next tenant.
        </Typography.Paragraph>
      )}
      {scheduledFor && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={`Moves out on ${formatDate(scheduledFor)} already: a date up to today moves them out now; cancel that move-out to choose another day.`}
        />
      )}
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
