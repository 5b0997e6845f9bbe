import type { LockStatus } from '@storage/contracts/enums';
import { CreateLockRequest, MAX_BATTERY_LEVEL, MIN_BATTERY_LEVEL, NEW_LOCK_BATTERY_LEVEL } from '@storage/contracts/locks';
import { Button, Col, Flex, Form, Input, InputNumber, Modal, Row, Select } from 'antd';
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

/** The form is rebuilt on every opening, so it starts from the defaults again. */
export function LockFormDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title="Add Lock" footer={null} onCancel={onClose} destroyOnHidden width={600}>
      <LockForm onDone={onClose} />
    </Modal>
  );
}

function LockForm({ onDone }: { onDone: () => void }) {
  const createLock = useCreateLock();
  const { selectedFacility } = useFacilityScope();
  const UnitPicker = useUnitPicker();
  const toast = useToast();

  const save = ({ unitId, ...values }: LockFormValues) =>
    createLock.mutate(
      { ...values, unitId: unitId === NO_UNIT ? null : unitId },
      {
        onSuccess: () => {
          toast.success('Lock created successfully');
          onDone();
        },
        onError: (error) => toast.failure('Failed to create lock', error),
      },
    );

  return (
    <Form<LockFormValues> layout="vertical" initialValues={newLock} onFinish={save} disabled={createLock.isPending} style={{ marginTop: 16 }}>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item label="Lock ID" name="lockId" required rules={[contractRule('Lock ID', fieldSchemas.lockId)]}>
            <Input autoComplete="off" autoFocus placeholder="NK-100234" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Unit" name="unitId">
            <UnitPicker facilityId={selectedFacility?.id ?? null} emptyOptionLabel="No unit assigned" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Status" name="status">
            <Select options={lockStatusOptions} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            label="Battery Level (%)"
            name="batteryLevel"
            normalize={batteryOrZero}
            rules={[contractRule('Battery level', fieldSchemas.batteryLevel)]}
          >
            <InputNumber min={MIN_BATTERY_LEVEL} max={MAX_BATTERY_LEVEL} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label="Firmware Version" name="firmwareVersion" rules={[contractRule('Firmware version', fieldSchemas.firmwareVersion)]}>
            <Input autoComplete="off" placeholder="2.4.0" />
          </Form.Item>
        </Col>
      </Row>
      <Flex justify="flex-end" gap={8}>
        <Button onClick={onDone}>Cancel</Button>
        <Button type="primary" htmlType="submit" loading={createLock.isPending}>
          Add Lock
        </Button>
      </Flex>
    </Form>
  );
}
