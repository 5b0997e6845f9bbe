import { LockOutlined } from '@ant-design/icons';
import { NEW_PASSWORD_HELP } from '@storage/contracts/auth';
import { ChangePasswordRequest } from '@storage/contracts/settings';
import { Button, Card, Divider, Flex, Form, type FormRule, Input } from 'antd';
import type { ReactNode } from 'react';
import { showRefusalOnField } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useChangePassword } from '../api/change-password.ts';
import { SettingsCardTitle } from './settings-card-title.tsx';

type PasswordField = keyof ChangePasswordRequest;

const passwordInputs: ReadonlyArray<{ name: PasswordField; label: string; autoComplete: string; dependsOn: PasswordField[]; help?: string }> = [
  { name: 'currentPassword', label: 'Current Password', autoComplete: 'current-password', dependsOn: [] },
  { name: 'newPassword', label: 'New Password', autoComplete: 'new-password', dependsOn: ['currentPassword'], help: NEW_PASSWORD_HELP },
  { name: 'confirmPassword', label: 'Confirm Password', autoComplete: 'new-password', dependsOn: ['newPassword'] },
];

/**
 * Checks the three fields together with the contract (given, differs from current, confirmed) and
 * reports this field's part; whether the new one is long and hard enough to guess, the server says.
 */
function passwordRule(field: PasswordField, label: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: async () => {
      const values = Object.fromEntries(passwordInputs.map(({ name }) => [name, getFieldValue(name) ?? '']));
      const issue = ChangePasswordRequest.safeParse(values).error?.issues.find((candidate) => candidate.path[0] === field);
      if (issue) throw new Error(`${label.charAt(0)}${label.slice(1).toLowerCase()} ${issue.message}`);
    },
  });
}

/**
 * Every staff member may change their own password (the session stays signed in); `twoFactor`:
 * their two-factor sign-in below it (the auth feature's, composed by the settings screen).
 */
export function SecurityCard({ twoFactor }: { twoFactor?: ReactNode }) {
  const [form] = Form.useForm<ChangePasswordRequest>();
  const changePassword = useChangePassword();
  const toast = useToast();

  const save = (values: ChangePasswordRequest) => {
    const outcome = toast.outcome('Password changed successfully', 'Failed to change password', () => form.resetFields());
    changePassword.mutate(values, {
      ...outcome,
      onError: (error) => {
        outcome.onError(error);
        // A new password too easy to guess, or a wrong current one: the server's reason under its field too.
        showRefusalOnField(form, error, { currentPassword: 'Current password', newPassword: 'New password' });
      },
    });
  };

  return (
    <Card title={<SettingsCardTitle icon={<LockOutlined />} text="Security" />} className="stretch-card">
      <Form<ChangePasswordRequest> name="changePassword" form={form} layout="vertical" onFinish={save} disabled={changePassword.isPending}>
        {passwordInputs.map(({ name, label, autoComplete, dependsOn, help }) => (
          <Form.Item key={name} label={label} name={name} required dependencies={dependsOn} rules={[passwordRule(name, label)]} extra={help}>
            <Input.Password autoComplete={autoComplete} />
          </Form.Item>
        ))}
        <Flex justify="flex-end">
          <Button type="primary" htmlType="submit" loading={changePassword.isPending}>
            Update Password
          </Button>
        </Flex>
      </Form>
      {twoFactor && (
        <>
          <Divider />
          {twoFactor}
        </>
      )}
    </Card>
  );
}
