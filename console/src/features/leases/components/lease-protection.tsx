import { SafetyOutlined } from '@ant-design/icons';
import { type LeaseProtection, type LeaseProtectionView, protectionChangeReasonLabels, RecordInsuranceProofRequest } from '@storage/contracts/protection';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Flex, Form, Input, Select, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule, showRefusalOnField } from '../../../lib/form-rules.ts';
import { formatDate } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useChangeLeaseProtection, useLeaseProtection, useRecordInsuranceProof } from '../api/lease-protection.ts';
import { todayLocalIsoDate } from '../local-date.ts';
import { NO_PLAN, planOptions, planWords } from '../protection-words.ts';

/** A plan in a line: its name, coverage and premium. */
function planLine(plan: LeaseProtection | null): string {
  return plan === null ? 'No protection plan' : planWords(plan);
}

/**
 * The lease's Protection block: the plan now, the renter's own insurance on file and the history of
 * changes; Change Plan and Record Proof of Insurance for those who may change leases.
 */
export function LeaseProtectionBlock({ leaseId, canChange }: { leaseId: string; canChange: boolean }) {
  const protection = useLeaseProtection(leaseId);
  return (
    <section aria-label="Protection" data-testid="lease-protection">
      <Typography.Text strong style={{ display: 'block', marginBottom: 4 }}>
        <SafetyOutlined className="card-line-icon" />
        Protection
      </Typography.Text>
      {protection.isPending ? (
        <Skeleton active title={false} paragraph={{ rows: 2 }} />
      ) : protection.isError ? (
        <Alert type="warning" showIcon title="Could not load the lease’s protection" description={serverMessage(protection.error)} />
      ) : (
        <ProtectionFigures view={protection.data} canChange={canChange} />
      )}
    </section>
  );
}

function ProtectionFigures({ view, canChange }: { view: LeaseProtectionView; canChange: boolean }) {
  const proof = view.insuranceProof;
  const expired = proof !== null && proof.expiresOn < todayLocalIsoDate();
  return (
    <Flex vertical gap={4}>
      <Typography.Text data-testid="lease-protection-current">{planLine(view.current)}</Typography.Text>
      <Typography.Text type="secondary" data-testid="lease-insurance-proof">
        {proof === null ? (
          'No proof of insurance on file'
        ) : (
          <>
            Own insurance: {proof.carrier}, policy {proof.policyNumber}, {expired ? 'expired' : 'expires'} {formatDate(proof.expiresOn)}
            {expired && (
              <Tag color="red" style={{ marginLeft: 8 }}>
                Expired
              </Tag>
            )}
          </>
        )}
      </Typography.Text>
      {view.history.length > 0 && (
        <ul aria-label="Protection history" style={{ margin: 0, paddingLeft: 18 }}>
          {[...view.history].reverse().map((change) => (
            <li key={`${change.changedAt}-${change.effectiveDate}`}>
              <Typography.Text type="secondary">
                {formatDate(change.effectiveDate)}: {change.protection?.name ?? 'No protection plan'} ({protectionChangeReasonLabels[change.reason]})
              </Typography.Text>
            </li>
          ))}
        </ul>
      )}
      {canChange && (
        <Flex gap={8} wrap>
          <ChangePlanButton view={view} />
          <RecordProofButton leaseId={view.leaseId} />
        </Flex>
      )}
    </Flex>
  );
}

function ChangePlanButton({ view }: { view: LeaseProtectionView }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>
        Change Plan
      </Button>
      <FormDialog open={open} title="Change Protection Plan" width={480} onClose={() => setOpen(false)}>
        <ChangePlanForm view={view} onDone={() => setOpen(false)} />
      </FormDialog>
    </>
  );
}

type PlanValues = { planId: string };

function ChangePlanForm({ view, onDone }: { view: LeaseProtectionView; onDone: () => void }) {
  const [form] = Form.useForm<PlanValues>();
  const change = useChangeLeaseProtection(view.leaseId);
  const toast = useToast();
  const save = ({ planId }: PlanValues) =>
    change.mutate(
      { planId: planId === NO_PLAN ? null : planId },
      {
        onSuccess: (answered) => {
          const from = answered.history.at(-1)?.effectiveDate;
          toast.success(from ? `Protection plan changed; billed from ${formatDate(from)}` : 'Protection plan changed');
          onDone();
        },
        onError: (error) => {
          showRefusalOnField(form, error, { planId: 'Plan' });
          toast.failure('Failed to change the protection plan', error);
        },
      },
    );
  return (
    <DialogForm<PlanValues>
      form={form}
      initialValues={{ planId: view.current?.planId ?? NO_PLAN }}
      onFinish={save}
      saving={change.isPending}
      submitLabel="Change Plan"
      onCancel={onDone}
    >
      <Form.Item label="Plan" name="planId" extra="Billed from the first period not yet invoiced: periods already invoiced keep their plan.">
        <Select options={planOptions(view.plans)} />
      </Form.Item>
    </DialogForm>
  );
}

function RecordProofButton({ leaseId }: { leaseId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>
        Record Proof of Insurance
      </Button>
      <FormDialog open={open} title="Record Proof of Insurance" width={480} onClose={() => setOpen(false)}>
        <RecordProofForm leaseId={leaseId} onDone={() => setOpen(false)} />
      </FormDialog>
    </>
  );
}

type ProofValues = { carrier: string; policyNumber: string; expiresOn: string };

const proofFields = RecordInsuranceProofRequest.shape;
const proofLabels = { carrier: 'Carrier', policyNumber: 'Policy number', expiresOn: 'Expires on' } as const;

function RecordProofForm({ leaseId, onDone }: { leaseId: string; onDone: () => void }) {
  const [form] = Form.useForm<ProofValues>();
  const record = useRecordInsuranceProof(leaseId);
  const toast = useToast();
  const save = (values: ProofValues) =>
    record.mutate(
      { carrier: values.carrier.trim(), policyNumber: values.policyNumber.trim(), expiresOn: values.expiresOn },
      {
        onSuccess: () => {
          toast.success('Proof of insurance recorded');
          onDone();
        },
        onError: (error) => {
          showRefusalOnField(form, error, proofLabels);
          toast.failure('Failed to record the proof of insurance', error);
        },
      },
    );
  return (
    <DialogForm<ProofValues>
      form={form}
      initialValues={{ carrier: '', policyNumber: '', expiresOn: '' }}
      onFinish={save}
      saving={record.isPending}
      submitLabel="Record Proof"
      onCancel={onDone}
    >
      <FieldGrid>
        <GridField wide label="Carrier" name="carrier" required rules={[contractRule('Carrier', proofFields.carrier)]}>
          <Input autoComplete="off" />
        </GridField>
        <GridField label="Policy Number" name="policyNumber" required rules={[contractRule('Policy number', proofFields.policyNumber)]}>
          <Input autoComplete="off" />
        </GridField>
        <GridField label="Expires On" name="expiresOn" required rules={[contractRule('Expires on', proofFields.expiresOn)]}>
          <Input type="date" />
        </GridField>
      </FieldGrid>
    </DialogForm>
  );
}
