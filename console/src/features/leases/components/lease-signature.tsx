import { EditOutlined, FilePdfOutlined } from '@ant-design/icons';
import { type LeaseSignatureSummary, type SignatureChannel, SignLeaseRequest } from '@storage/contracts/lease-signatures';
import type { Lease } from '@storage/contracts/leases';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Flex, Form, Input, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { formatDate, formatTime12h } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { signedLeasePdfUrl, useLeaseToSign, useSignLease } from '../api/lease-signature.ts';
import { SignaturePad } from './signature-pad.tsx';

const channelLabels: Record<SignatureChannel, string> = { desk: 'at the desk', online: 'online' };

/** The card's tag: nothing for a signed lease, "Awaiting signature" for one not signed electronically. */
export function AwaitingSignatureTag({ lease }: { lease: Lease }) {
  if (lease.signature) return null;
  return <Tag color="gold">Awaiting signature</Tag>;
}

function SignedLine({ signature }: { signature: LeaseSignatureSummary }) {
  return (
    <Typography.Text data-testid="lease-signed">
      Signed by {signature.signerName} on {formatDate(signature.signedAt)} at {formatTime12h(signature.signedAt)}, {channelLabels[signature.channel]}
    </Typography.Text>
  );
}

/** The lease's signature on its card: who, when and how, the signed PDF, and Sign at the Desk for staff who may. */
export function LeaseSignatureLine({ lease, canSign }: { lease: Lease; canSign: boolean }) {
  const { signature } = lease;
  return (
    <Flex gap={8} wrap align="center" data-testid="lease-signature">
      {signature ? <SignedLine signature={signature} /> : <Typography.Text type="secondary">Not signed electronically yet.</Typography.Text>}
      {signature && (
        <Button size="small" icon={<FilePdfOutlined />} href={signedLeasePdfUrl(lease.id)} download>
          Download Signed PDF
        </Button>
      )}
      {canSign && lease.isActive && !signature && <SignAtDeskButton lease={lease} />}
    </Flex>
  );
}

export function SignAtDeskButton({ lease }: { lease: Lease }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" type="primary" icon={<EditOutlined />} onClick={() => setOpen(true)}>
        Sign at the Desk
      </Button>
      <FormDialog open={open} title="Sign the Lease" width={640} onClose={() => setOpen(false)}>
        <SignLeaseForm lease={lease} onDone={() => setOpen(false)} />
      </FormDialog>
    </>
  );
}

type SignValues = { signerName: string; mark: string | null };

const agreementStyle = {
  maxHeight: 260,
  overflow: 'auto',
  whiteSpace: 'pre-wrap',
  padding: 12,
  border: '1px solid #e2e8f0',
  borderRadius: 6,
  background: '#f8fafc',
  fontSize: 13,
  margin: 0,
} as const;

/** The agreement to read, the typed name and the drawn mark; the server signs the document it renders now, the one shown here. */
export function SignLeaseForm({ lease, onDone }: { lease: Lease; onDone: () => void }) {
  const toSign = useLeaseToSign(lease.id, true);
  const sign = useSignLease(lease.id);
  const toast = useToast();
  const [form] = Form.useForm<SignValues>();

  if (toSign.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (toSign.isError) return <Alert type="error" showIcon title="Could not load the lease agreement" description={serverMessage(toSign.error)} />;
  const { text, documentSha256 } = toSign.data;

  const save = ({ signerName, mark }: SignValues) =>
    sign.mutate(
      { signerName, mark: mark!, documentSha256 },
      // A refusal (the lease changed) leaves the dialog open: the leases' refetch, the agreement
      // among them, puts the document as it is now in front of the renter to read again.
      toast.outcome('Lease signed', 'Failed to sign the lease', onDone),
    );

  return (
    <DialogForm<SignValues>
      form={form}
      initialValues={{ signerName: '', mark: null }}
      onFinish={save}
      saving={sign.isPending}
      submitLabel="Sign"
      onCancel={onDone}
    >
      <Typography.Paragraph type="secondary">
        {lease.customer.firstName} {lease.customer.lastName} reads the agreement, types their full name and signs below.
      </Typography.Paragraph>
      <section aria-label="Lease agreement">
        <pre style={agreementStyle} data-testid="agreement-text">
          {text}
        </pre>
      </section>
      <Form.Item label="Full Name" name="signerName" required style={{ marginTop: 16 }} rules={[contractRule('Full name', SignLeaseRequest.shape.signerName)]}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item label="Signature" name="mark" required rules={[{ required: true, message: 'Please draw the signature' }]}>
        <SignaturePad />
      </Form.Item>
    </DialogForm>
  );
}
