import type { LockStatus } from '@storage/contracts/enums';
import type { Lock, UpdateLockRequest } from '@storage/contracts/locks';
import { Descriptions, Drawer, Flex, Form, Select, Tag, Typography } from 'antd';
import { FormActions } from '../../../components/form-actions.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { ageLabel, formatDate, formatTime12h } from '../../../lib/format.ts';
import { useCanChange } from '../../../lib/staff-permissions.ts';
import { useToast } from '../../../lib/toast.tsx';
import { WithHistoryTab } from '../../history/components/entity-history.tsx';
import { useUpdateLock } from '../api/update-lock.ts';
import { gapDuration, lockStateLabel, lockStatusColor, lockStatusLabel, lockStatusOptions } from '../lock-status.ts';
import { NO_UNIT, useUnitPicker } from '../unit-picker-slot.tsx';
import { BatteryLevel } from './battery-level.tsx';

type LockDetailsValues = { unitId: string; status: LockStatus };

/** The lock's details: where it is and how it is, and the unit and status staff may change. */
export function LockDetailsDrawer({ lock, open, onClose }: { lock: Lock; open: boolean; onClose: () => void }) {
  const canChange = useCanChange();
  return (
    <Drawer open={open} onClose={onClose} title={`Lock ${lock.lockId}`} size="min(440px, 100vw)" destroyOnHidden>
      <WithHistoryTab streamType="lock" id={lock.id}>
        <Flex vertical gap={24}>
          <Descriptions
            column={1}
            size="small"
            bordered
            items={[
              { key: 'status', label: 'Status', children: <Tag color={lockStatusColor(lock.status)}>{lockStatusLabel(lock.status)}</Tag> },
              { key: 'unit', label: 'Unit', children: lock.unit?.unitNumber ?? 'Unknown Unit' },
              { key: 'battery', label: 'Battery', children: <BatteryLevel level={lock.batteryLevel} /> },
              {
                key: 'last-seen',
                label: 'Last seen',
                children: lock.lastSeen ? `${ageLabel(lock.lastSeen)} (${formatDate(lock.lastSeen)}, ${formatTime12h(lock.lastSeen)})` : ageLabel(null),
              },
              { key: 'firmware', label: 'Firmware', children: lock.firmwareVersion ?? '—' },
              { key: 'desired', label: 'Desired state', children: lockStateLabel(lock.desiredState) },
              {
                key: 'reported',
                label: 'Reported state',
                children: lock.reportedAt
                  ? `${lockStateLabel(lock.reportedState)} (${formatDate(lock.reportedAt)}, ${formatTime12h(lock.reportedAt)})`
                  : lockStateLabel(null),
              },
              { key: 'gap', label: 'Differs for', children: lock.differsSince ? gapDuration(lock.differsSince) : '—' },
              { key: 'installed', label: 'Installed', children: formatDate(lock.createdAt) },
              {
                key: 'gateway-id',
                label: 'Gateway ID',
                // The id the facility's gateway reports this lock's heartbeats under.
                children: (
                  <Typography.Text copyable code style={{ wordBreak: 'break-all' }}>
                    {lock.id}
                  </Typography.Text>
                ),
              },
            ]}
          />
          {canChange && (
            <div>
              <Typography.Title level={5}>Change</Typography.Title>
              <LockDetailsForm lock={lock} onDone={onClose} />
            </div>
          )}
        </Flex>
      </WithHistoryTab>
    </Drawer>
  );
}

function LockDetailsForm({ lock, onDone }: { lock: Lock; onDone: () => void }) {
  const updateLock = useUpdateLock();
  const { selectedFacility } = useFacilityScope();
  const UnitPicker = useUnitPicker();
  const toast = useToast();
  const initial: LockDetailsValues = { unitId: lock.unitId ?? NO_UNIT, status: lock.status };

  const save = (values: LockDetailsValues) => {
    const changes: UpdateLockRequest = {};
    if (values.unitId !== initial.unitId) changes.unitId = values.unitId === NO_UNIT ? null : values.unitId;
    if (values.status !== initial.status) changes.status = values.status;
    if (Object.keys(changes).length === 0) {
      onDone();
      return;
    }
    updateLock.mutate({ lockId: lock.id, changes }, toast.outcome('Lock updated successfully', 'Failed to update lock', onDone));
  };

  return (
    <Form<LockDetailsValues> layout="vertical" initialValues={initial} onFinish={save} disabled={updateLock.isPending}>
      <Form.Item label="Unit" name="unitId">
        <UnitPicker facilityId={lock.unit?.facilityId ?? selectedFacility?.id ?? null} emptyOptionLabel="No unit assigned" selectedUnit={lock.unit} />
      </Form.Item>
      <Form.Item label="Status" name="status">
        <Select options={lockStatusOptions} />
      </Form.Item>
      <FormActions submitLabel="Save Changes" saving={updateLock.isPending} onCancel={onDone} />
    </Form>
  );
}
