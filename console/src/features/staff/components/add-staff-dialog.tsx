import { NEW_PASSWORD_HELP } from '@storage/contracts/auth';
import { StaffRole } from '@storage/contracts/enums';
import { AddStaffRequest, staffRoleLabels } from '@storage/contracts/staff';
import { Form, Input, Select } from 'antd';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule, showRefusalOnField } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useAddStaff } from '../api/staff.ts';

type AddStaffValues = { email: string; firstName: string; lastName: string; role: StaffRole; password: string };

const fieldSchemas = AddStaffRequest.shape;
export const roleOptions = StaffRole.options.map((role) => ({ value: role, label: staffRoleLabels[role] }));

/** The owner adds a member with a role and a temporary password to hand over; the member changes it in Settings → Security. */
export function AddStaffDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <FormDialog open={open} title="Add Staff Member" width={560} onClose={onClose}>
      <AddStaffForm onDone={onClose} />
    </FormDialog>
  );
}

function AddStaffForm({ onDone }: { onDone: () => void }) {
  const [form] = Form.useForm<AddStaffValues>();
  const addStaff = useAddStaff();
  const toast = useToast();
  const save = (values: AddStaffValues) => {
    const outcome = toast.outcome('Staff member added successfully', 'Failed to add staff member', onDone);
    addStaff.mutate(values, {
      ...outcome,
      onError: (error) => {
        outcome.onError(error);
        // Only the server knows whether a password is too easy to guess: its reason goes under the field too.
        showRefusalOnField(form, error, { password: 'Temporary password' });
      },
    });
  };

  return (
    <DialogForm<AddStaffValues>
      name="addStaff"
      form={form}
      initialValues={{ email: '', firstName: '', lastName: '', role: 'clerk', password: '' }}
      onFinish={save}
      saving={addStaff.isPending}
      submitLabel="Add Staff Member"
      onCancel={onDone}
    >
      <Form.Item label="Email" name="email" required rules={[contractRule('Email', fieldSchemas.email)]}>
        <Input type="email" autoComplete="off" autoFocus />
      </Form.Item>
      <FieldGrid>
        <GridField label="First Name" name="firstName" rules={[contractRule('First name', fieldSchemas.firstName)]}>
          <Input autoComplete="off" />
        </GridField>
        <GridField label="Last Name" name="lastName" rules={[contractRule('Last name', fieldSchemas.lastName)]}>
          <Input autoComplete="off" />
        </GridField>
      </FieldGrid>
      <Form.Item label="Role" name="role" required>
        <Select options={roleOptions} />
      </Form.Item>
      <Form.Item
        label="Temporary Password"
        name="password"
        required
        extra={`${NEW_PASSWORD_HELP}. Give it to the new member; they can change it in Settings → Security.`}
        rules={[contractRule('Temporary password', fieldSchemas.password)]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </DialogForm>
  );
}
