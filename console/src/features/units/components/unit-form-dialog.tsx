import { unitFormSizes, type UnitSize, type UnitStatus } from '@storage/contracts/enums';
import { CreateUnitRequest } from '@storage/contracts/units';
import { Button, Col, Flex, Form, Input, Modal, Row, Select } from 'antd';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useCreateUnit } from '../api/create-unit.ts';
import { unitStatusOptions } from '../unit-status.ts';

type UnitFormValues = {
  unitNumber: string;
  building: string;
  size: UnitSize;
  monthlyRate: string;
  status: UnitStatus;
  description: string;
};

const fieldSchemas = CreateUnitRequest.shape;

/** Spec §5: size 10x10 and status available; the monthly rate starts empty. */
const newUnit: UnitFormValues = { unitNumber: '', building: '', size: '10x10', monthlyRate: '', status: 'available', description: '' };

const sizeOptions = unitFormSizes.map(({ value, label }) => ({ value, label: `${value} (${label})` }));

type UnitFormDialogProps = { open: boolean; onClose: () => void; onCreated?: () => void };

/** The form is rebuilt on every opening, so it starts from the defaults again. */
export function UnitFormDialog({ open, onClose, onCreated }: UnitFormDialogProps) {
  return (
    <Modal open={open} title="Add Unit" footer={null} onCancel={onClose} destroyOnHidden width={600}>
      <UnitForm
        onCancel={onClose}
        onCreated={() => {
          onCreated?.();
          onClose();
        }}
      />
    </Modal>
  );
}

function UnitForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: () => void }) {
  const createUnit = useCreateUnit();
  const { selectedFacility } = useFacilityScope();
  const toast = useToast();

  const save = (values: UnitFormValues) =>
    createUnit.mutate(
      { ...values, facilityId: selectedFacility?.id ?? null },
      {
        onSuccess: () => {
          toast.success('Unit created successfully');
          onCreated();
        },
        onError: (error) => toast.failure('Failed to create unit', error),
      },
    );

  return (
    <Form<UnitFormValues> layout="vertical" initialValues={newUnit} onFinish={save} disabled={createUnit.isPending} style={{ marginTop: 16 }}>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item label="Unit Number" name="unitNumber" required rules={[contractRule('Unit number', fieldSchemas.unitNumber)]}>
            <Input autoComplete="off" autoFocus placeholder="A101" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Building" name="building" required rules={[contractRule('Building', fieldSchemas.building)]}>
            <Input autoComplete="off" placeholder="A" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Size" name="size">
            <Select options={sizeOptions} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Monthly Rate" name="monthlyRate" required rules={[contractRule('Monthly rate', fieldSchemas.monthlyRate)]}>
            <Input prefix="$" inputMode="decimal" autoComplete="off" placeholder="120.00" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Status" name="status">
            <Select options={unitStatusOptions} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label="Description" name="description" rules={[contractRule('Description', fieldSchemas.description)]}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
          </Form.Item>
        </Col>
      </Row>
      <Flex justify="flex-end" gap={8}>
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="primary" htmlType="submit" loading={createUnit.isPending}>
          Add Unit
        </Button>
      </Flex>
    </Form>
  );
}
