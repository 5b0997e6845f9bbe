import { CreditCardOutlined } from '@ant-design/icons';
import { PaymentSettingsRequest, type Settings } from '@storage/contracts/settings';
import { Card, Flex, Form, Input, Switch, Typography } from 'antd';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useUpdatePaymentSettings } from '../api/update-payment-settings.ts';
import { SettingsCardTitle } from './settings-card-title.tsx';
import { SettingsFormFooter } from './settings-form-footer.tsx';

type PaymentSettingsValues = { automaticCharging: boolean; lateFeeAmount: string };

const TEST_PROVIDER_TEXT = 'Built-in test provider (no Stripe key configured)';

export function PaymentSettingsCard({ payments, canChange }: { payments: Settings['payments']; canChange: boolean }) {
  const updatePaymentSettings = useUpdatePaymentSettings();
  const toast = useToast();

  const save = (values: PaymentSettingsValues) =>
    updatePaymentSettings.mutate(values, toast.outcome('Payment settings saved successfully', 'Failed to save payment settings'));

  return (
    <Card title={<SettingsCardTitle icon={<CreditCardOutlined />} text="Payment Settings" />} className="stretch-card">
      <Form<PaymentSettingsValues>
        // Saving a fixed late fee on the Billing card changes this amount too: the form starts again from the new one.
        key={payments.lateFeeAmount}
        name="paymentSettings"
        layout="vertical"
        initialValues={{ automaticCharging: payments.automaticCharging, lateFeeAmount: payments.lateFeeAmount }}
        onFinish={save}
        disabled={!canChange || updatePaymentSettings.isPending}
      >
        <Form.Item label="Publishable Key">
          {payments.publishableKey ? (
            <Typography.Text code data-testid="publishable-key">
              {payments.publishableKey}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary" data-testid="publishable-key">
              {TEST_PROVIDER_TEXT}
            </Typography.Text>
          )}
        </Form.Item>
        <Flex justify="space-between" align="center" gap={16} style={{ marginBottom: 24 }}>
          <Flex vertical>
            <Typography.Text strong id="automatic-charging-label">
              Automatic Charging
            </Typography.Text>
            <Typography.Text type="secondary">Charge saved cards automatically when rent is due</Typography.Text>
          </Flex>
          <Form.Item name="automaticCharging" valuePropName="checked" noStyle>
            <Switch aria-labelledby="automatic-charging-label" />
          </Form.Item>
        </Flex>
        <Form.Item label="Late Fee Amount" name="lateFeeAmount" required rules={[contractRule('Late fee amount', PaymentSettingsRequest.shape.lateFeeAmount)]}>
          <Input prefix="$" inputMode="decimal" placeholder="25.00" />
        </Form.Item>
        <SettingsFormFooter canChange={canChange} saving={updatePaymentSettings.isPending} saveLabel="Save Payment Settings" />
      </Form>
    </Card>
  );
}
