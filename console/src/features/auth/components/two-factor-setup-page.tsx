import { Card, Flex, Typography } from 'antd';
import { Brand } from '../../../components/brand.tsx';
import { useAfterTwoFactorChange } from '../api/two-factor.ts';
import { TwoFactorSetup } from './two-factor-setup.tsx';

/**
 * What a member sees when the business requires two-factor sign-in and they have not set it up:
 * the setup, and nothing else (the server refuses every other staff request until it is on).
 */
export function TwoFactorSetupPage() {
  const afterChange = useAfterTwoFactorChange();
  return (
    <Flex vertical align="center" justify="center" gap={16} className="sign-in-page">
      <Card className="sign-in-card two-factor-setup-card">
        <Flex vertical gap={4} style={{ marginBottom: 16 }}>
          <Brand />
          <Typography.Title level={3} style={{ margin: '16px 0 0' }}>
            Set up two-factor sign-in
          </Typography.Title>
          <Typography.Text type="secondary">
            Your business requires a code from an authenticator app when you sign in, as well as your password. Set it up to continue.
          </Typography.Text>
        </Flex>
        <TwoFactorSetup onFinished={() => void afterChange()} />
      </Card>
      <Typography.Link href="/api/logout">Sign out</Typography.Link>
    </Flex>
  );
}
