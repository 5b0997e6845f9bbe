import { RiseOutlined } from '@ant-design/icons';
import type { Lease } from '@storage/contracts/leases';
import { type RentChange, RentChangeRequest } from '@storage/contracts/rent-changes';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Flex, Input, Popconfirm, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useCancelRentChange, useLeaseRentChanges, useScheduleRentChange } from '../api/rent-changes.ts';

type RentChangeValues = { newRate: string; effectiveDate: string; reason: string };

const fields = RentChangeRequest.shape;

/** "Change Rent" on an active lease: a new monthly rate from a date no sooner than the notice period. */
export function ChangeRentButton({ lease }: { lease: Lease }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="text" icon={<RiseOutlined />} onClick={() => setOpen(true)}>
        Change Rent
      </Button>
      <FormDialog open={open} title="Change Rent" width={480} onClose={() => setOpen(false)}>
        <ChangeRentForm lease={lease} onDone={() => setOpen(false)} />
      </FormDialog>
    </>
  );
}

/** Made anew on each opening, with its own idempotency key: a double submit schedules once. */
function ChangeRentForm({ lease, onDone }: { lease: Lease; onDone: () => void }) {
  const changes = useLeaseRentChanges(lease.id);
  const schedule = useScheduleRentChange(lease.id);
  const toast = useToast();
  const [key] = useState(() => crypto.randomUUID());
  if (changes.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (changes.isError) return <Alert type="error" showIcon title="Could not load the lease's rent changes" description={serverMessage(changes.error)} />;
  const { terms } = changes.data;
  const pending = changes.data.changes.find((c) => c.status === 'pending');
  const current = changes.data.changes.find((c) => c.status === 'in_effect')?.newRate ?? lease.monthlyRate;

  const save = ({ newRate, effectiveDate, reason }: RentChangeValues) =>
    schedule.mutate(
      { request: { newRate, effectiveDate, reason: reason || null }, key },
      toast.outcome('Rent change scheduled', 'Failed to schedule the rent change', onDone),
    );

  return (
    <DialogForm<RentChangeValues>
      initialValues={{ newRate: '', effectiveDate: terms.earliestEffectiveDate, reason: '' }}
      onFinish={save}
      saving={schedule.isPending}
      submitLabel="Schedule Change"
      onCancel={onDone}
    >
      <Typography.Paragraph>
        Unit {lease.unit.unitNumber}, {lease.customer.firstName} {lease.customer.lastName}: now {formatDollars(current)} a month. The notice goes out today; the
        new rate applies from the first rent period that starts on or after the effective date, at least {terms.noticeDays} days from now.
      </Typography.Paragraph>
      {pending && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={`A change to ${formatDollars(pending.newRate)} from ${formatDate(pending.effectiveDate)} is pending: cancel it first.`}
        />
      )}
      <FieldGrid>
        <GridField label="New Monthly Rate" name="newRate" required rules={[contractRule('New monthly rate', fields.newRate)]}>
          <Input prefix="$" placeholder="0.00" inputMode="decimal" autoComplete="off" />
        </GridField>
        <GridField
          label="Effective Date"
          name="effectiveDate"
          required
          extra={`On or after ${formatDate(terms.earliestEffectiveDate)}`}
          rules={[
            contractRule('Effective date', fields.effectiveDate),
            {
              validator: async (_rule, value: string) => {
                if (value && value < terms.earliestEffectiveDate)
                  throw new Error(`Effective date must be on or after ${formatDate(terms.earliestEffectiveDate)}`);
              },
            },
          ]}
        >
          <Input type="date" min={terms.earliestEffectiveDate} />
        </GridField>
        <GridField wide label="Reason" name="reason" rules={[contractRule('Reason', fields.reason)]}>
          <Input autoComplete="off" placeholder="Optional, e.g. yearly review" />
        </GridField>
      </FieldGrid>
    </DialogForm>
  );
}

/** The lease's pending rent change, with Cancel for those who set rents; nothing when there is none. */
export function PendingRentChange({ leaseId, canCancel }: { leaseId: string; canCancel: boolean }) {
  const changes = useLeaseRentChanges(leaseId);
  const pending = changes.data?.changes.find((c) => c.status === 'pending');
  if (!pending) return null;
  return <PendingRentChangeLine leaseId={leaseId} change={pending} canCancel={canCancel} />;
}

function PendingRentChangeLine({ leaseId, change, canCancel }: { leaseId: string; change: RentChange; canCancel: boolean }) {
  const cancel = useCancelRentChange(leaseId);
  const toast = useToast();
  return (
    <Alert
      type="info"
      showIcon
      data-testid="pending-rent-change"
      title={`Rent changes to ${formatDollars(change.newRate)} from ${formatDate(change.effectiveDate)}`}
      description={`Was ${formatDollars(change.currentRate)}; notice sent ${formatDate(change.noticeDate)}${change.reason ? `. ${change.reason}` : ''}`}
      action={
        canCancel && (
          <Flex>
            <Popconfirm
              title="Cancel this rent change?"
              okText="Cancel Change"
              cancelText="Keep It"
              onConfirm={() => cancel.mutate({ changeId: change.id, request: {} }, toast.outcome('Rent change cancelled', 'Failed to cancel the rent change'))}
            >
              <Button size="small" danger loading={cancel.isPending}>
                Cancel
              </Button>
            </Popconfirm>
          </Flex>
        )
      }
    />
  );
}
