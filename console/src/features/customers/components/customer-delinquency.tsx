import { PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { type DelinquencyTimeline, type DelinquencyTimelineEntry, PauseDelinquencyRequest, ResumeDelinquencyRequest } from '@storage/contracts/delinquency';
import { formatDollars } from '@storage/contracts/money';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Descriptions, Empty, Flex, Form, Input, Result, Skeleton, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { formatDate } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useDelinquency, usePauseDelinquency, useResumeDelinquency } from '../api/delinquency.ts';

const statusTag: Record<DelinquencyTimeline['status'], { color: string; text: string }> = {
  current: { color: 'green', text: 'Current' },
  delinquent: { color: 'red', text: 'Delinquent' },
  paused: { color: 'gold', text: 'Paused' },
};

function entryText(entry: DelinquencyTimelineEntry): string {
  switch (entry.type) {
    case 'step_taken':
      return `${entry.label}: day ${entry.day} after ${entry.invoiceNumber ?? 'the invoice'} was due, ${formatDollars(entry.pastDue ?? '0.00')} past due`;
    case 'cleared':
      return `Cleared: ${entry.reason ?? ''}`;
    case 'paused':
      return `Paused until ${formatDate(entry.until ?? entry.date)}: ${entry.reason ?? ''}`;
    default:
      return `Resumed: ${entry.reason ?? ''}`;
  }
}

const entryColor = { step_taken: 'red', cleared: 'green', paused: 'gold', resumed: 'blue' } as const;

/**
 * The renter's delinquency: the steps taken on them (each naming the rule, the invoice and the day),
 * the next step and its date, what to pay to stop it, and (owners, managers) Pause and Resume.
 */
export function CustomerDelinquency({ customerId, canPause }: { customerId: string; canPause: boolean }) {
  const delinquency = useDelinquency(customerId);
  if (delinquency.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (delinquency.isError) return <Result status="error" title="Could not load the delinquency timeline" subTitle={serverMessage(delinquency.error)} />;
  const timeline = delinquency.data;
  const { nextStep, pause } = timeline;
  const tag = statusTag[timeline.status];
  return (
    <Flex vertical gap={16} data-testid="customer-delinquency">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Descriptions size="small" column={{ xs: 1, sm: 2 }}>
          <Descriptions.Item label="Status">
            <Tag color={tag.color}>{tag.text}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label="Past Due">{formatDollars(timeline.pastDue)}</Descriptions.Item>
        </Descriptions>
        {canPause && (
          <Flex gap={8}>
            <ScheduleControls customerId={customerId} paused={timeline.status === 'paused'} today={timeline.today} />
          </Flex>
        )}
      </Flex>
      {pause && <Alert type="warning" showIcon title={`Paused until ${formatDate(pause.until)}`} description={pause.reason} />}
      {nextStep ? (
        <Alert
          type="error"
          showIcon
          data-testid="next-step"
          title={`Next: ${nextStep.label} on ${formatDate(nextStep.date)} (${nextStep.invoiceNumber})`}
          description={<Typography.Text strong>Pay {formatDollars(nextStep.amountToStop)} to stop it</Typography.Text>}
        />
      ) : (
        <Typography.Text type="secondary">No delinquency step is coming.</Typography.Text>
      )}
      {timeline.events.length === 0 ? (
        <Empty description="No delinquency steps taken" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Timeline
          items={timeline.events.map((entry) => ({
            key: entry.id,
            color: entryColor[entry.type],
            content: (
              <Flex vertical>
                <Typography.Text>{entryText(entry)}</Typography.Text>
                <Typography.Text type="secondary">{formatDate(entry.date)}</Typography.Text>
              </Flex>
            ),
          }))}
        />
      )}
    </Flex>
  );
}

type PauseValues = { until: string; reason: string };

/**
 * Pause or Resume, as the schedule stands. Both dialogs stay mounted whatever the status: a pause
 * answered turns the schedule to paused at once, and a dialog unmounted with its button in the
 * middle of closing could be left on the screen.
 */
function ScheduleControls({ customerId, paused, today }: { customerId: string; paused: boolean; today: string }) {
  const [open, setOpen] = useState<'pause' | 'resume' | null>(null);
  const close = () => setOpen(null);
  return (
    <>
      {paused ? (
        <Button icon={<PlayCircleOutlined />} onClick={() => setOpen('resume')}>
          Resume
        </Button>
      ) : (
        <Button icon={<PauseCircleOutlined />} onClick={() => setOpen('pause')}>
          Pause
        </Button>
      )}
      <FormDialog open={open === 'pause'} title="Pause the Delinquency Schedule" width={480} onClose={close}>
        <PauseForm customerId={customerId} today={today} onDone={close} />
      </FormDialog>
      <FormDialog open={open === 'resume'} title="Resume the Delinquency Schedule" width={480} onClose={close}>
        <ResumeForm customerId={customerId} onDone={close} />
      </FormDialog>
    </>
  );
}

/** Made anew on each opening, with its own idempotency key. */
function PauseForm({ customerId, today, onDone }: { customerId: string; today: string; onDone: () => void }) {
  const [form] = Form.useForm<PauseValues>();
  const [key] = useState(() => crypto.randomUUID());
  const pause = usePauseDelinquency(customerId);
  const toast = useToast();
  const save = (request: PauseValues) => pause.mutate({ request, key }, toast.outcome('Schedule paused', 'Failed to pause the schedule', onDone));
  return (
    <DialogForm<PauseValues>
      form={form}
      initialValues={{ until: '', reason: '' }}
      onFinish={save}
      saving={pause.isPending}
      submitLabel="Pause"
      onCancel={onDone}
    >
      <Typography.Paragraph type="secondary">No step fires until the day after this date (at most 90 days ahead).</Typography.Paragraph>
      <FieldGrid>
        <GridField
          label="Until"
          name="until"
          required
          rules={[
            contractRule('Until', PauseDelinquencyRequest.shape.until),
            { validator: async (_, value: string) => (value && value <= today ? Promise.reject(new Error('Until must be after today')) : undefined) },
          ]}
        >
          <Input type="date" min={today} />
        </GridField>
        <GridField
          wide
          label="Reason"
          name="reason"
          required
          extra="For example, a promise to pay"
          rules={[contractRule('Reason', PauseDelinquencyRequest.shape.reason)]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
        </GridField>
      </FieldGrid>
    </DialogForm>
  );
}

function ResumeForm({ customerId, onDone }: { customerId: string; onDone: () => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const [key] = useState(() => crypto.randomUUID());
  const resume = useResumeDelinquency(customerId);
  const toast = useToast();
  const save = (request: { reason: string }) => resume.mutate({ request, key }, toast.outcome('Schedule resumed', 'Failed to resume the schedule', onDone));
  return (
    <DialogForm<{ reason: string }> form={form} initialValues={{ reason: '' }} onFinish={save} saving={resume.isPending} submitLabel="Resume" onCancel={onDone}>
      <GridField wide label="Reason" name="reason" required rules={[contractRule('Reason', ResumeDelinquencyRequest.shape.reason)]}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
      </GridField>
    </DialogForm>
  );
}
