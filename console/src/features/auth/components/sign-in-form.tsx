import { LoginRequest, TotpCode, TwoFactorCode, type TwoFactorSignInRequest } from '@storage/contracts/auth';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { contractRule } from '../../../lib/form-rules.ts';
import { useSignIn, useSignInWithCode } from '../api/sign-in.ts';

const goToConsole = () => {
  window.location.href = '/';
};

/** Email and password; then, for a member with two-factor sign-in, the code from their app (or a recovery code). */
export function SignInForm() {
  const signIn = useSignIn();
  const [codeNeeded, setCodeNeeded] = useState(false);

  const submit = (credentials: LoginRequest) =>
    signIn.mutate(credentials, {
      onSuccess: (answer) => ('twoFactorRequired' in answer ? setCodeNeeded(true) : goToConsole()),
    });

  if (codeNeeded) {
    return (
      <TwoFactorCodeForm
        onStartOver={() => {
          signIn.reset();
          setCodeNeeded(false);
        }}
      />
    );
  }

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

/** The second step: the password was right, and the session opens with a current code. */
function TwoFactorCodeForm({ onStartOver }: { onStartOver: () => void }) {
  const signInWithCode = useSignInWithCode();
  const [form] = Form.useForm<TwoFactorSignInRequest>();
  const [recovery, setRecovery] = useState(false);

  const switchKind = () => {
    setRecovery(!recovery);
    form.resetFields();
    signInWithCode.reset();
  };

  return (
    <Form<TwoFactorSignInRequest>
      form={form}
      name="twoFactorCode"
      layout="vertical"
      requiredMark={false}
      onFinish={(request) => signInWithCode.mutate(request, { onSuccess: goToConsole })}
      disabled={signInWithCode.isPending}
    >
      {signInWithCode.error && <Alert type="error" showIcon title={serverMessage(signInWithCode.error)} style={{ marginBottom: 16 }} />}
      <Typography.Paragraph>
        {recovery
          ? 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each code works once.'
          : 'Enter the 6-digit code from your authenticator app.'}
      </Typography.Paragraph>
      {recovery ? (
        <Form.Item key="recovery" label="Recovery code" name="code" rules={[contractRule('Recovery code', TwoFactorCode)]}>
          <Input autoComplete="off" autoCapitalize="off" spellCheck={false} autoFocus />
        </Form.Item>
      ) : (
        <Form.Item key="app" label="Authentication code" name="code" rules={[contractRule('Authentication code', TotpCode)]}>
          <Input autoComplete="one-time-code" inputMode="numeric" maxLength={7} autoFocus />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" block size="large" loading={signInWithCode.isPending}>
        Verify
      </Button>
      <Flex justify="space-between" wrap style={{ marginTop: 12 }}>
        <Button type="link" onClick={switchKind} style={{ paddingInline: 0 }}>
          {recovery ? 'Use the code from your app' : 'Use a recovery code'}
        </Button>
        <Button type="link" onClick={onStartOver} style={{ paddingInline: 0 }}>
          Start over
        </Button>
      </Flex>
    </Form>
  );
}
