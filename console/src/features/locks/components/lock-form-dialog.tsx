import type { LockStatus } from '@storage/contracts/enums';
import { CreateLockRequest, MAX_BATTERY_LEVEL, MIN_BATTERY_LEVEL, NEW_LOCK_BATTERY_LEVEL } from '@storage/contracts/locks';
import { Input, InputNumber, Select } from 'antd';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useCreateLock } from '../api/create-lock.ts';
import { lockStatusOptions } from '../lock-status.ts';
import { NO_UNIT, useUnitPicker } from '../unit-picker-slot.tsx';

type LockFormValues = {
  lockId: string;
  unitId: string;
  status: LockStatus;
  batteryLevel: number;
  firmwareVersion: string;
};

const fieldSchemas = CreateLockRequest.shape;

/** Spec §5: status active, battery 100, no unit. */
const newLock: LockFormValues = { lockId: '', unitId: NO_UNIT, status: 'active', batteryLevel: NEW_LOCK_BATTERY_LEVEL, firmwareVersion: '' };

/** Spec §5: a non-numeric battery entry becomes 0. */
const batteryOrZero = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

export function LockFormDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <FormDialog open={open} title="Add Lock" width={600} onClose={onClose}>
      <LockForm onDone={onClose} />
    </FormDialog>
  );
}

function LockForm({ onDone }: { onDone: () => void }) {
  const createLock = useCreateLock();
  const { selectedFacility } = useFacilityScope();
  const UnitPicker = useUnitPicker();
  const toast = useToast();

  const save = ({ unitId, ...values }: LockFormValues) =>
    createLock.mutate({ ...values, unitId: unitId === NO_UNIT ? null : unitId }, toast.outcome('Lock created successfully', 'Failed to create lock', onDone));

  return (
    <DialogForm<LockFormValues> initialValues={newLock} onFinish={save} saving={createLock.isPending} submitLabel="Add Lock" onCancel={onDone}>
      <FieldGrid>
        <GridField label="Lock ID" name="lockId" required rules={[contractRule('Lock ID', fieldSchemas.lockId)]}>
          <Input autoComplete="off" autoFocus placeholder="NK-100234" />
        </GridField>
        <GridField label="Unit" name="unitId">
          <UnitPicker facilityId={selectedFacility?.id ?? null} emptyOptionLabel="No unit assigned" />
        </GridField>
        <GridField label="Status" name="status">
          <Select options={lockStatusOptions} />
        </GridField>
        <GridField label="Battery Level (%)" name="batteryLevel" normalize={batteryOrZero} rules={[contractRule('Battery level', fieldSchemas.batteryLevel)]}>
          <InputNumber min={MIN_BATTERY_LEVEL} max={MAX_BATTERY_LEVEL} precision={0} style={{ width: '100%' }} />
        </GridField>
        <GridField wide label="Firmware Version" name="firmwareVersion" rules={[contractRule('Firmware version', fieldSchemas.firmwareVersion)]}>
          <Input autoComplete="off" placeholder="2.4.0" />
        </GridField>
      </FieldGrid>
    </DialogForm>
  );
}
