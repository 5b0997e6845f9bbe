import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { type ConfirmTwoFactorRequest, TotpCode } from '@storage/contracts/auth';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Flex, Form, Input, Result, Skeleton, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { contractRule, refusalOfField } from '../../../lib/form-rules.ts';
import { useConfirmTwoFactor, useStartTwoFactorEnrolment } from '../api/two-factor.ts';

/** The secret as apps ask it to be typed: groups of 4. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * Setting up two-factor sign-in, start to end: a new secret (its QR code, and the key to type), a
 * current code from the app to turn it on, then the recovery codes, shown this once.
 * `onFinished`: the member put the recovery codes away (or closed the setup).
 */
export function TwoFactorSetup({ onFinished }: { onFinished: () => void }) {
  const start = useStartTwoFactorEnrolment();
  const confirm = useConfirmTwoFactor();
  const [form] = Form.useForm<ConfirmTwoFactorRequest>();
  const started = useRef(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  /** A refusal that is not about the code typed (the setup ran out, too many tries). */
  const [refusal, setRefusal] = useState<string | null>(null);

  // Once per setup shown: a second start would replace the secret the QR code shows.
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start.mutate();
  }, [start]);

  if (recoveryCodes) return <RecoveryCodesPanel codes={recoveryCodes} onDone={onFinished} />;
  if (start.isError) {
    return (
      <Result
        status="error"
        title="Could not start the setup"
        subTitle={serverMessage(start.error)}
        extra={
          <Button type="primary" onClick={() => start.mutate()}>
            Try again
          </Button>
        }
      />
    );
  }
  if (!start.data) return <Skeleton active paragraph={{ rows: 6 }} />;
  const { qrSvg, secret } = start.data;

  const turnOn = (request: ConfirmTwoFactorRequest) => {
    setRefusal(null);
    confirm.mutate(request, {
      onSuccess: ({ recoveryCodes: codes }) => setRecoveryCodes(codes),
      onError: (error) => {
        const wrongCode = refusalOfField(error, { code: 'Code' });
        if (wrongCode) form.setFields([{ name: 'code', errors: [wrongCode.message] }]);
        else setRefusal(serverMessage(error));
      },
    });
  };

  return (
    <Flex vertical gap={12} data-testid="two-factor-setup">
      <Typography.Text>
        1. Scan this QR code with an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password and others).
      </Typography.Text>
      <img
        className="two-factor-qr"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg)}`}
        width={184}
        height={184}
        alt="QR code of your two-factor sign-in key, for your authenticator app to scan"
      />
      <Typography.Text>
        Can’t scan it? Add an account in the app by hand with this key (time-based):{' '}
        <Typography.Text code copyable={{ text: secret, tooltips: ['Copy the key', 'Copied'] }} data-testid="two-factor-secret">
          {grouped(secret)}
        </Typography.Text>
      </Typography.Text>
      <Form<ConfirmTwoFactorRequest> form={form} name="confirmTwoFactor" layout="vertical" requiredMark={false} onFinish={turnOn} disabled={confirm.isPending}>
        {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} />}
        <Form.Item label="2. Enter the 6-digit code the app shows" name="code" rules={[contractRule('Code', TotpCode)]}>
          <Input autoComplete="one-time-code" inputMode="numeric" maxLength={7} style={{ maxWidth: 200 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={confirm.isPending}>
          Turn On
        </Button>
      </Form>
    </Flex>
  );
}

/** Recovery codes, shown once: each signs in once without the phone. Copy or download them, then done. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = `Self Storage recovery codes (each works once)\n\n${codes.join('\n')}\n`;

  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
  };
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };

  return (
    <Flex vertical gap={12} data-testid="recovery-codes">
      <Alert
        type="warning"
        showIcon
        title="Save your recovery codes now"
        description="If you lose your phone, each code signs you in once instead of a code from the app. They are not shown again."
      />
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <Typography.Text code>{code}</Typography.Text>
          </li>
        ))}
      </ul>
      <Flex gap={8} wrap>
        <Button icon={<CopyOutlined />} onClick={copy}>
          {copied ? 'Copied' : 'Copy Codes'}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={download}>
          Download
        </Button>
        <Button type="primary" onClick={onDone}>
          I Saved My Codes
        </Button>
      </Flex>
    </Flex>
  );
}
