import { Card, Flex, Typography } from 'antd';
import { Brand } from '../../components/brand.tsx';
import { SignInForm } from '../../features/auth/components/sign-in-form.tsx';

export default function SignInPage() {
  return (
    <Flex vertical align="center" justify="center" gap={16} className="sign-in-page">
      <Card className="sign-in-card">
        <Flex vertical gap={4} style={{ marginBottom: 24 }}>
          <Brand />
          <Typography.Title level={3} style={{ margin: '16px 0 0' }}>
            Sign in
          </Typography.Title>
          <Typography.Text type="secondary">Staff access to the facility dashboard.</Typography.Text>
        </Flex>
        <SignInForm />
      </Card>
      <Typography.Link href="/">Back to the home page</Typography.Link>
    </Flex>
  );
}
