import { LogoutOutlined } from '@ant-design/icons';
import { EndLeaseRequest, type Lease } from '@storage/contracts/leases';
import { Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useEndLease } from '../api/end-lease.ts';
import { todayLocalIsoDate } from '../local-date.ts';

type MoveOutValues = { endDate: string };

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
  const today = todayLocalIsoDate();
  const { customer, unit } = lease;

  const save = ({ endDate }: MoveOutValues) =>
    endLease.mutate({ leaseId: lease.id, endDate }, toast.outcome('Lease ended successfully', 'Failed to end lease', onMovedOut));

  return (
    <DialogForm<MoveOutValues>
      // biome-ignore lint/complexity/useMathMinMax: ISO date strings, not numbers; Math.max would give NaN
      initialValues={{ endDate: today < lease.startDate ? lease.startDate : today }}
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
    </DialogForm>
  );
}
