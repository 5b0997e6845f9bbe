import { CreateCustomerRequest, type Customer } from '@storage/contracts/customers';
import type { CustomerStatus } from '@storage/contracts/enums';
import { Button, Col, Flex, Form, Input, Modal, Row, Select } from 'antd';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useCreateCustomer } from '../api/create-customer.ts';
import { useUpdateCustomer } from '../api/update-customer.ts';
import { customerStatusOptions } from '../../../lib/customer-status.ts';

type CustomerFormValues = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  emergencyContact: string;
  emergencyPhone: string;
  status: CustomerStatus;
};

const fieldSchemas = CreateCustomerRequest.shape;

const emptyCustomer: CustomerFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  address: '',
  emergencyContact: '',
  emergencyPhone: '',
  status: 'active',
};

function formValuesOf(customer: Customer): CustomerFormValues {
  return {
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: customer.email,
    phone: customer.phone ?? '',
    address: customer.address ?? '',
    emergencyContact: customer.emergencyContact ?? '',
    emergencyPhone: customer.emergencyPhone ?? '',
    status: customer.status,
  };
}

/** An edit sends only what changed, so the customer's history records real changes only. */
function changedFields(before: CustomerFormValues, after: CustomerFormValues): Partial<CustomerFormValues> {
  return Object.fromEntries(Object.entries(after).filter(([field, value]) => before[field as keyof CustomerFormValues] !== value));
}

type CustomerFormDialogProps = {
  open: boolean;
  /** The customer to edit; without one the dialog adds a customer. */
  customer?: Customer;
  onClose: () => void;
};

/** Add Customer and Edit Customer share this dialog; its form is rebuilt on every opening, so it starts clean. */
export function CustomerFormDialog({ open, customer, onClose }: CustomerFormDialogProps) {
  return (
    <Modal open={open} title={customer ? 'Edit Customer' : 'Add Customer'} footer={null} onCancel={onClose} destroyOnHidden width={640}>
      <CustomerForm customer={customer} onDone={onClose} />
    </Modal>
  );
}

function CustomerForm({ customer, onDone }: { customer?: Customer; onDone: () => void }) {
  const createCustomer = useCreateCustomer();
  const updateCustomer = useUpdateCustomer();
  const { selectedFacility } = useFacilityScope();
  const toast = useToast();
  const saving = createCustomer.isPending || updateCustomer.isPending;

  const save = (values: CustomerFormValues) => {
    if (customer) {
      const changes = changedFields(formValuesOf(customer), values);
      if (Object.keys(changes).length === 0) {
        onDone();
        return;
      }
      updateCustomer.mutate(
        { customerId: customer.id, changes },
        {
          onSuccess: () => {
            toast.success('Customer updated successfully');
            onDone();
          },
          onError: (error) => toast.failure('Failed to update customer', error),
        },
      );
      return;
    }
    createCustomer.mutate(selectedFacility ? { ...values, facilityId: selectedFacility.id } : values, {
      onSuccess: () => {
        toast.success('Customer created successfully');
        onDone();
      },
      onError: (error) => toast.failure('Failed to create customer', error),
    });
  };

  return (
    <Form<CustomerFormValues>
      layout="vertical"
      initialValues={customer ? formValuesOf(customer) : emptyCustomer}
      onFinish={save}
      disabled={saving}
      style={{ marginTop: 16 }}
    >
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item label="First Name" name="firstName" required rules={[contractRule('First name', fieldSchemas.firstName)]}>
            <Input autoComplete="off" autoFocus />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Last Name" name="lastName" required rules={[contractRule('Last name', fieldSchemas.lastName)]}>
            <Input autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Email" name="email" required rules={[contractRule('Email', fieldSchemas.email)]}>
            <Input type="email" autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Phone" name="phone" rules={[contractRule('Phone', fieldSchemas.phone)]}>
            <Input type="tel" autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label="Address" name="address" rules={[contractRule('Address', fieldSchemas.address)]}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Emergency Contact" name="emergencyContact" rules={[contractRule('Emergency contact', fieldSchemas.emergencyContact)]}>
            <Input autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Emergency Phone" name="emergencyPhone" rules={[contractRule('Emergency phone', fieldSchemas.emergencyPhone)]}>
            <Input type="tel" autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Status" name="status">
            <Select options={customerStatusOptions} />
          </Form.Item>
        </Col>
      </Row>
      <Flex justify="flex-end" gap={8}>
        <Button onClick={onDone}>
          Cancel
        </Button>
        <Button type="primary" htmlType="submit" loading={saving}>
          {customer ? 'Save Changes' : 'Add Customer'}
        </Button>
      </Flex>
    </Form>
  );
}
