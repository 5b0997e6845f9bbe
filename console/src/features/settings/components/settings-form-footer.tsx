import { Button, Flex, Typography } from 'antd';

type SettingsFormFooterProps = {
  /** Owners and managers change settings; everyone else sees them read-only. */
  canChange: boolean;
  saving: boolean;
  saveLabel: string;
};

export function SettingsFormFooter({ canChange, saving, saveLabel }: SettingsFormFooterProps) {
  if (!canChange) {
    return <Typography.Text type="secondary">Only owners and managers can change these settings.</Typography.Text>;
  }
  return (
    <Flex justify="flex-end">
      <Button type="primary" htmlType="submit" loading={saving}>
        {saveLabel}
      </Button>
    </Flex>
  );
}
