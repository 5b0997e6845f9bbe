import { type ChosenCustomerStatus, CreateCustomerRequest, type Customer } from '@storage/contracts/customers';
import { Input, Select } from 'antd';
import { FacilityField } from '../../../components/facility-field.tsx';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { changedFields } from '../../../lib/changed-fields.ts';
import { chosenCustomerStatusOptions } from '../../../lib/customer-status.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useCreateCustomer } from '../api/create-customer.ts';
import { useUpdateCustomer } from '../api/update-customer.ts';

type ContactValues = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  emergencyContact: string;
  emergencyPhone: string;
};

/** An edit has only the contact details: the standing and the facility are set when the customer is added. */
type CustomerFormValues = ContactValues & { status?: ChosenCustomerStatus; facilityId?: string };

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

function contactValuesOf(customer: ContactValues | Customer): ContactValues {
  return {
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: customer.email,
    phone: customer.phone ?? '',
    address: customer.address ?? '',
    emergencyContact: customer.emergencyContact ?? '',
    emergencyPhone: customer.emergencyPhone ?? '',
  };
}

type CustomerFormDialogProps = {
  open: boolean;
  /** The customer to edit; without one the dialog adds a customer. */
  customer?: Customer;
  onClose: () => void;
  /** The customer added (before the dialog closes), e.g. to choose them in the form it was opened from. */
  onCreated?: (customer: Customer) => void;
};

/** Add Customer and Edit Customer share this dialog. */
export function CustomerFormDialog({ open, customer, onClose, onCreated }: CustomerFormDialogProps) {
  return (
    <FormDialog open={open} title={customer ? 'Edit Customer' : 'Add Customer'} width={640} onClose={onClose}>
      <CustomerForm customer={customer} onDone={onClose} onCreated={onCreated} />
    </FormDialog>
  );
}

function CustomerForm({ customer, onDone, onCreated }: { customer?: Customer; onDone: () => void; onCreated?: (customer: Customer) => void }) {
  const createCustomer = useCreateCustomer();
  const updateCustomer = useUpdateCustomer();
  const { selectedFacility } = useFacilityScope();
  const toast = useToast();
  const saving = createCustomer.isPending || updateCustomer.isPending;

  const save = (values: CustomerFormValues) => {
    if (customer) {
      const changes = changedFields(contactValuesOf(customer), contactValuesOf(values));
      if (Object.keys(changes).length === 0) {
        onDone();
        return;
      }
      updateCustomer.mutate({ customerId: customer.id, changes }, toast.outcome('Customer updated successfully', 'Failed to update customer', onDone));
      return;
    }
    createCustomer.mutate(
      { ...values, status: values.status ?? 'active', facilityId: values.facilityId ?? null },
      toast.outcome('Customer created successfully', 'Failed to create customer', (created: Customer) => {
        onCreated?.(created);
        onDone();
      }),
    );
  };

  return (
    <DialogForm<CustomerFormValues>
      initialValues={customer ? contactValuesOf(customer) : { ...emptyCustomer, facilityId: selectedFacility?.id }}
      onFinish={save}
      saving={saving}
      submitLabel={customer ? 'Save Changes' : 'Add Customer'}
      onCancel={onDone}
    >
      <FieldGrid>
        <GridField label="First Name" name="firstName" required rules={[contractRule('First name', fieldSchemas.firstName)]}>
          <Input autoComplete="off" autoFocus />
        </GridField>
        <GridField label="Last Name" name="lastName" required rules={[contractRule('Last name', fieldSchemas.lastName)]}>
          <Input autoComplete="off" />
        </GridField>
        <GridField label="Email" name="email" required rules={[contractRule('Email', fieldSchemas.email)]}>
          <Input type="email" autoComplete="off" />
        </GridField>
        <GridField label="Phone" name="phone" rules={[contractRule('Phone', fieldSchemas.phone)]}>
          <Input type="tel" autoComplete="off" />
        </GridField>
        <GridField wide label="Address" name="address" rules={[contractRule('Address', fieldSchemas.address)]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
        </GridField>
        <GridField label="Emergency Contact" name="emergencyContact" rules={[contractRule('Emergency contact', fieldSchemas.emergencyContact)]}>
          <Input autoComplete="off" />
        </GridField>
        <GridField label="Emergency Phone" name="emergencyPhone" rules={[contractRule('Emergency phone', fieldSchemas.emergencyPhone)]}>
          <Input type="tel" autoComplete="off" />
        </GridField>
        {!customer && (
          <>
            <GridField label="Status" name="status">
              <Select options={chosenCustomerStatusOptions} />
            </GridField>
            <FacilityField />
          </>
        )}
      </FieldGrid>
    </DialogForm>
  );
}
