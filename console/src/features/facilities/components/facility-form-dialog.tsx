import { CreateFacilityRequest, type Facility } from '@storage/contracts/facilities';
import { Button, Col, Flex, Form, Input, Modal, Row } from 'antd';
import { changedFields } from '../../../lib/changed-fields.ts';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useCreateFacility } from '../api/create-facility.ts';
import { useUpdateFacility } from '../api/update-facility.ts';

type FacilityFormValues = { name: string; address: string; phone: string; managerName: string };

const fieldSchemas = CreateFacilityRequest.shape;

const emptyFacility: FacilityFormValues = { name: '', address: '', phone: '', managerName: '' };

function formValuesOf(facility: Facility): FacilityFormValues {
  return { name: facility.name, address: facility.address, phone: facility.phone ?? '', managerName: facility.managerName ?? '' };
}

type FacilityFormDialogProps = {
  open: boolean;
  /** The facility to edit; without one the dialog adds a facility. */
  facility?: Facility;
  onClose: () => void;
};

/** Add Facility and Edit Facility share this dialog; its form is rebuilt on every opening, so it starts clean. */
export function FacilityFormDialog({ open, facility, onClose }: FacilityFormDialogProps) {
  return (
    <Modal open={open} title={facility ? 'Edit Facility' : 'Add Facility'} footer={null} onCancel={onClose} destroyOnHidden width={560}>
      <FacilityForm facility={facility} onDone={onClose} />
    </Modal>
  );
}

function FacilityForm({ facility, onDone }: { facility?: Facility; onDone: () => void }) {
  const createFacility = useCreateFacility();
  const updateFacility = useUpdateFacility();
  const toast = useToast();
  const saving = createFacility.isPending || updateFacility.isPending;

  const save = (values: FacilityFormValues) => {
    if (facility) {
      const changes = changedFields(formValuesOf(facility), values);
      if (Object.keys(changes).length === 0) {
        onDone();
        return;
      }
      updateFacility.mutate(
        { facilityId: facility.id, changes },
        {
          onSuccess: () => {
            toast.success('Facility updated successfully');
            onDone();
          },
          onError: (error) => toast.failure('Failed to update facility', error),
        },
      );
      return;
    }
    createFacility.mutate(values, {
      onSuccess: () => {
        toast.success('Facility created successfully');
        onDone();
      },
      onError: (error) => toast.failure('Failed to create facility', error),
    });
  };

  return (
    <Form<FacilityFormValues>
      name="facility"
      layout="vertical"
      initialValues={facility ? formValuesOf(facility) : emptyFacility}
      onFinish={save}
      disabled={saving}
      style={{ marginTop: 16 }}
    >
      <Form.Item label="Name" name="name" required rules={[contractRule('Name', fieldSchemas.name)]}>
        <Input autoComplete="off" autoFocus />
      </Form.Item>
      <Form.Item label="Address" name="address" required rules={[contractRule('Address', fieldSchemas.address)]}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item label="Phone" name="phone" rules={[contractRule('Phone', fieldSchemas.phone)]}>
            <Input type="tel" autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Manager Name" name="managerName" rules={[contractRule('Manager name', fieldSchemas.managerName)]}>
            <Input autoComplete="off" />
          </Form.Item>
        </Col>
      </Row>
      <Flex justify="flex-end" gap={8}>
        <Button onClick={onDone}>Cancel</Button>
        <Button type="primary" htmlType="submit" loading={saving}>
          {facility ? 'Save Changes' : 'Add Facility'}
        </Button>
      </Flex>
    </Form>
  );
}
