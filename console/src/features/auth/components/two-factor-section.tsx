import { SafetyCertificateOutlined } from '@ant-design/icons';
import { type RegenerateRecoveryCodesRequest, TotpCode, TurnOffTwoFactorRequest } from '@storage/contracts/auth';
import { serverMessage } from '@storage/web-client/api';
import { Button, Divider, Flex, Form, Input, Modal, Result, Skeleton, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule, showRefusalOnField } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import {
  useAfterTwoFactorChange,
  useRegenerateRecoveryCodes,
  useSaveSecuritySettings,
  useSecuritySettings,
  useTurnOffTwoFactor,
  useTwoFactorStatus,
} from '../api/two-factor.ts';
import { RecoveryCodesPanel, TwoFactorSetup } from './two-factor-setup.tsx';

type Dialog = 'setup' | 'turnOff' | 'newCodes' | null;

/** The signed-in member's two-factor sign-in (Settings → Security), and for owners the switch that requires it of all staff. */
export function TwoFactorSection({ isOwner }: { isOwner: boolean }) {
  const status = useTwoFactorStatus();
  const afterChange = useAfterTwoFactorChange();
  const [dialog, setDialog] = useState<Dialog>(null);

  if (status.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (status.isError) return <Result status="error" title="Could not load your two-factor sign-in" subTitle={serverMessage(status.error)} />;
  const { enabled, recoveryCodesLeft } = status.data;
  const closeSetup = () => {
    setDialog(null);
    void afterChange();
  };

  return (
    <Flex vertical gap={12} data-testid="two-factor-section">
      <Flex gap={8} align="center" wrap>
        <SafetyCertificateOutlined aria-hidden />
        <Typography.Text strong>Two-Factor Sign-In</Typography.Text>
        {enabled ? <Tag color="green">On</Tag> : <Tag>Off</Tag>}
      </Flex>
      <Typography.Text type="secondary">
        {enabled
          ? `After your password, you sign in with a code from your authenticator app. Recovery codes left: ${recoveryCodesLeft ?? 0}.`
          : 'Protect your account with a code from an authenticator app on your phone, asked for after your password.'}
      </Typography.Text>
      <Flex gap={8} wrap>
        {enabled ? (
          <>
            <Button onClick={() => setDialog('newCodes')}>New Recovery Codes</Button>
            <Button danger onClick={() => setDialog('turnOff')}>
              Turn Off
            </Button>
          </>
        ) : (
          <Button type="primary" onClick={() => setDialog('setup')}>
            Set Up Two-Factor Sign-In
          </Button>
        )}
      </Flex>
      <Modal
        open={dialog === 'setup'}
        title="Set Up Two-Factor Sign-In"
        footer={null}
        onCancel={closeSetup}
        destroyOnHidden
        mask={{ closable: false }}
        width={480}
      >
        <TwoFactorSetup onFinished={closeSetup} />
      </Modal>
      <TurnOffDialog open={dialog === 'turnOff'} onClose={() => setDialog(null)} />
      <NewRecoveryCodesDialog open={dialog === 'newCodes'} onClose={() => setDialog(null)} />
      {isOwner && <RequireTwoFactorSwitch ownEnabled={enabled} />}
    </Flex>
  );
}

function TurnOffDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<TurnOffTwoFactorRequest>();
  const turnOff = useTurnOffTwoFactor();
  const toast = useToast();
  const submit = (request: TurnOffTwoFactorRequest) => {
    const outcome = toast.outcome('Two-factor sign-in is off', 'Failed to turn off two-factor sign-in', onClose);
    turnOff.mutate(request, {
      ...outcome,
      onError: (error) => {
        outcome.onError(error);
        showRefusalOnField(form, error, { password: 'Password', code: 'Code' });
      },
    });
  };
  return (
    <FormDialog open={open} title="Turn Off Two-Factor Sign-In" width={440} onClose={onClose}>
      <DialogForm<TurnOffTwoFactorRequest>
        form={form}
        name="turnOffTwoFactor"
        onFinish={submit}
        submitLabel="Turn Off"
        danger
        saving={turnOff.isPending}
        onCancel={onClose}
      >
        <Form.Item label="Password" name="password" rules={[contractRule('Password', TurnOffTwoFactorRequest.shape.password)]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item label="Code from your app, or a recovery code" name="code" rules={[contractRule('Code', TurnOffTwoFactorRequest.shape.code)]}>
          <Input autoComplete="one-time-code" />
        </Form.Item>
      </DialogForm>
    </FormDialog>
  );
}

function NewRecoveryCodesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<RegenerateRecoveryCodesRequest>();
  const regenerate = useRegenerateRecoveryCodes();
  const toast = useToast();
  const close = () => {
    regenerate.reset();
    onClose();
  };
  const submit = (request: RegenerateRecoveryCodesRequest) =>
    regenerate.mutate(request, {
      onError: (error) => {
        toast.failure('Failed to make new recovery codes', error);
        showRefusalOnField(form, error, { code: 'Code' });
      },
    });
  return (
    <FormDialog open={open} title="New Recovery Codes" width={480} onClose={close}>
      {regenerate.data ? (
        <RecoveryCodesPanel codes={regenerate.data.recoveryCodes} onDone={close} />
      ) : (
        <DialogForm<RegenerateRecoveryCodesRequest>
          form={form}
          name="newRecoveryCodes"
          onFinish={submit}
          submitLabel="Make New Codes"
          saving={regenerate.isPending}
          onCancel={close}
        >
          <Typography.Paragraph>Your current recovery codes stop working.</Typography.Paragraph>
          <Form.Item label="6-digit code from your app" name="code" rules={[contractRule('Code', TotpCode)]}>
            <Input autoComplete="one-time-code" inputMode="numeric" maxLength={7} />
          </Form.Item>
        </DialogForm>
      )}
    </FormDialog>
  );
}

/** Owners: require it of every staff member (the owner must have it on first, or they would lock themselves into setting it up). */
function RequireTwoFactorSwitch({ ownEnabled }: { ownEnabled: boolean }) {
  const settings = useSecuritySettings();
  const save = useSaveSecuritySettings();
  const toast = useToast();
  const required = settings.data?.twoFactorRequired ?? false;
  return (
    <>
      <Divider style={{ margin: '4px 0' }} />
      <Flex gap={12} align="flex-start">
        <Switch
          id="require-two-factor"
          checked={required}
          loading={settings.isPending || save.isPending}
          disabled={!settings.isSuccess || (!required && !ownEnabled)}
          onChange={(twoFactorRequired) =>
            save.mutate(
              { twoFactorRequired },
              toast.outcome(
                twoFactorRequired ? 'Two-factor sign-in is now required of all staff' : 'Two-factor sign-in is no longer required',
                'Failed to save the security settings',
              ),
            )
          }
          aria-describedby="require-two-factor-help"
        />
        <Flex vertical gap={2}>
          <label htmlFor="require-two-factor">
            <Typography.Text>Require two-factor sign-in for all staff</Typography.Text>
          </label>
          <Typography.Text type="secondary" id="require-two-factor-help">
            {!required && !ownEnabled
              ? 'Set up your own two-factor sign-in first.'
              : 'Staff without it can only set it up when they next sign in, before anything else.'}
          </Typography.Text>
        </Flex>
      </Flex>
    </>
  );
}
