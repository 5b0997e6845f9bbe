import { LoginRequest } from '@storage/contracts/auth';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Form, Input } from 'antd';
import { contractRule } from '../../../lib/form-rules.ts';
import { useSignIn } from '../api/sign-in.ts';

export function SignInForm() {
  const signIn = useSignIn();

  const submit = (credentials: LoginRequest) =>
    signIn.mutate(credentials, {
      onSuccess: () => {
        window.location.href = '/';
      },
    });

  return (
    <Form<LoginRequest> layout="vertical" requiredMark={false} onFinish={submit} disabled={signIn.isPending}>
      {signIn.error && <Alert type="error" showIcon title={serverMessage(signIn.error)} style={{ marginBottom: 16 }} />}
      <Form.Item label="Email" name="email" rules={[contractRule('Email', LoginRequest.shape.email)]}>
        <Input type="email" autoComplete="username" autoFocus />
      </Form.Item>
      <Form.Item label="Password" name="password" rules={[contractRule('Password', LoginRequest.shape.password)]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block size="large" loading={signIn.isPending}>
        Sign in
      </Button>
    </Form>
  );
}
