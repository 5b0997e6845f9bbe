import { LogoutOutlined } from '@ant-design/icons';
import { EndLeaseRequest, type Lease } from '@storage/contracts/leases';
import { Button, Flex, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
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
      <Modal open={open} title="Move Out" footer={null} onCancel={() => setOpen(false)} destroyOnHidden width={440}>
        <MoveOutForm
          lease={lease}
          onDone={() => setOpen(false)}
          onMovedOut={() => {
            onMovedOut();
            setOpen(false);
          }}
        />
      </Modal>
    </>
  );
}

function MoveOutForm({ lease, onDone, onMovedOut }: { lease: Lease; onDone: () => void; onMovedOut: () => void }) {
  const endLease = useEndLease();
  const toast = useToast();
  const today = todayLocalIsoDate();
  const { customer, unit } = lease;

  const save = ({ endDate }: MoveOutValues) =>
    endLease.mutate(
      { leaseId: lease.id, endDate },
      {
        onSuccess: () => {
          toast.success('Lease ended successfully');
          onMovedOut();
        },
        onError: (error) => toast.failure('Failed to end lease', error),
      },
    );

  return (
    <Form<MoveOutValues>
      layout="vertical"
      initialValues={{ endDate: today < lease.startDate ? lease.startDate : today }}
      onFinish={save}
      disabled={endLease.isPending}
      style={{ marginTop: 16 }}
    >
      <Typography.Paragraph>
        End the lease of {customer.firstName} {customer.lastName} on unit {unit.unitNumber}? The unit becomes available for the next tenant.
      </Typography.Paragraph>
      <Form.Item label="End Date" name="endDate" required rules={[contractRule('End date', EndLeaseRequest.shape.endDate)]}>
        <Input type="date" min={lease.startDate} />
      </Form.Item>
      <Flex justify="flex-end" gap={8}>
        <Button onClick={onDone}>Cancel</Button>
        <Button type="primary" danger htmlType="submit" loading={endLease.isPending}>
          Move Out
        </Button>
      </Flex>
    </Form>
  );
}
