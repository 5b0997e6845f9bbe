import { BellOutlined } from '@ant-design/icons';
import type { NotificationPreferences } from '@storage/contracts/settings';
import { Card, Divider, Flex, Form, Switch, Typography } from 'antd';
import { Fragment } from 'react';
import { useToast } from '../../../lib/toast.tsx';
import { useUpdateNotificationPreferences } from '../api/update-notification-preferences.ts';
import { SettingsCardTitle } from './settings-card-title.tsx';
import { SettingsFormFooter } from './settings-form-footer.tsx';

const toggles: ReadonlyArray<{ name: keyof NotificationPreferences; label: string; description: string }> = [
  { name: 'overduePaymentAlerts', label: 'Overdue Payment Alerts', description: 'Notify when an invoice becomes overdue' },
  { name: 'lowBatteryAlerts', label: 'Low Battery Alerts', description: 'Notify when a smart lock battery runs low' },
  { name: 'newCustomerAlerts', label: 'New Customer Alerts', description: 'Notify when a customer is added or a unit is reserved' },
];

type NotificationPreferencesCardProps = { preferences: NotificationPreferences; canChange: boolean };

export function NotificationPreferencesCard({ preferences, canChange }: NotificationPreferencesCardProps) {
  const updatePreferences = useUpdateNotificationPreferences();
  const toast = useToast();

  const save = (values: NotificationPreferences) =>
    updatePreferences.mutate(values, toast.outcome('Notification preferences saved successfully', 'Failed to save notification preferences'));

  return (
    <Card title={<SettingsCardTitle icon={<BellOutlined />} text="Notifications" />} className="stretch-card">
      <Form<NotificationPreferences>
        name="notificationPreferences"
        initialValues={preferences}
        onFinish={save}
        disabled={!canChange || updatePreferences.isPending}
      >
        {toggles.map((toggle, index) => (
          <Fragment key={toggle.name}>
            {index > 0 && <Divider style={{ margin: '12px 0' }} />}
            <Flex justify="space-between" align="center" gap={16}>
              <Flex vertical>
                <Typography.Text strong id={`${toggle.name}-label`}>
                  {toggle.label}
                </Typography.Text>
                <Typography.Text type="secondary">{toggle.description}</Typography.Text>
              </Flex>
              <Form.Item name={toggle.name} valuePropName="checked" noStyle>
                <Switch aria-labelledby={`${toggle.name}-label`} />
              </Form.Item>
            </Flex>
          </Fragment>
        ))}
        <Divider style={{ margin: '16px 0' }} />
        <SettingsFormFooter canChange={canChange} saving={updatePreferences.isPending} saveLabel="Save Preferences" />
      </Form>
    </Card>
  );
}
