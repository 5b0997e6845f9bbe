import { LockOutlined } from '@ant-design/icons';
import { ChangePasswordRequest } from '@storage/contracts/settings';
import { Button, Card, Flex, Form, type FormRule, Input } from 'antd';
import { useToast } from '../../../lib/toast.tsx';
import { useChangePassword } from '../api/change-password.ts';
import { SettingsCardTitle } from './settings-card-title.tsx';

type PasswordField = keyof ChangePasswordRequest;

const passwordInputs: ReadonlyArray<{ name: PasswordField; label: string; autoComplete: string; dependsOn: PasswordField[] }> = [
  { name: 'currentPassword', label: 'Current Password', autoComplete: 'current-password', dependsOn: [] },
  { name: 'newPassword', label: 'New Password', autoComplete: 'new-password', dependsOn: ['currentPassword'] },
  { name: 'confirmPassword', label: 'Confirm Password', autoComplete: 'new-password', dependsOn: ['newPassword'] },
];

/** Checks the three fields together with the contract (length, differs from current, confirmed) and reports this field's part. */
function passwordRule(field: PasswordField, label: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: async () => {
      const values = Object.fromEntries(passwordInputs.map(({ name }) => [name, getFieldValue(name) ?? '']));
      const issue = ChangePasswordRequest.safeParse(values).error?.issues.find((candidate) => candidate.path[0] === field);
      if (issue) throw new Error(`${label.charAt(0)}${label.slice(1).toLowerCase()} ${issue.message}`);
    },
  });
}

/** Every staff member may change their own password; the session stays signed in. */
export function SecurityCard() {
  const [form] = Form.useForm<ChangePasswordRequest>();
  const changePassword = useChangePassword();
  const toast = useToast();

  const save = (values: ChangePasswordRequest) =>
    changePassword.mutate(
      values,
      toast.outcome('Password changed successfully', 'Failed to change password', () => form.resetFields()),
    );

  return (
    <Card title={<SettingsCardTitle icon={<LockOutlined />} text="Security" />} className="stretch-card">
      <Form<ChangePasswordRequest> name="changePassword" form={form} layout="vertical" onFinish={save} disabled={changePassword.isPending}>
        {passwordInputs.map(({ name, label, autoComplete, dependsOn }) => (
          <Form.Item key={name} label={label} name={name} required dependencies={dependsOn} rules={[passwordRule(name, label)]}>
            <Input.Password autoComplete={autoComplete} />
          </Form.Item>
        ))}
        <Flex justify="flex-end">
          <Button type="primary" htmlType="submit" loading={changePassword.isPending}>
            Update Password
          </Button>
        </Flex>
      </Form>
    </Card>
  );
}
