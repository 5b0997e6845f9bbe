import { WarningOutlined } from '@ant-design/icons';
import { type DelinquencySettingsAnswer, type DelinquencyStep, DelinquencyStepInput } from '@storage/contracts/delinquency';
import { type DelinquencyStepKind, delinquencyStepLabels } from '@storage/contracts/enums';
import { Alert, Button, Card, Checkbox, Flex, Form, Input, InputNumber, Table, Typography } from 'antd';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useDelinquencySettings, useUpdateDelinquencySettings } from '../api/delinquency-settings.ts';
import { FollowBusinessSwitch, type ScopedFormProps, ScopedSettings, useFollowBusiness } from './scoped-settings.tsx';
import { SettingsCardTitle } from './settings-card-title.tsx';

const kinds = Object.keys(delinquencyStepLabels) as DelinquencyStepKind[];
const stepFields = DelinquencyStepInput.shape;

type StepRow = { kind: DelinquencyStepKind; enabled: boolean; day: number | null; threshold: string };
type DelinquencyFormValues = { followBusiness: boolean; steps: StepRow[] };

/** Every kind a row, in the product's order: those in the schedule checked, with their day and threshold. */
function rowsOf(steps: readonly DelinquencyStep[]): StepRow[] {
  const suggested: Record<DelinquencyStepKind, number> = { late_notice: 5, lockout: 15, pre_lien_notice: 30, lien: 45, auction_scheduled: 60 };
  return kinds.map((kind) => {
    const step = steps.find((s) => s.kind === kind);
    return step ? { kind, enabled: true, day: step.day, threshold: step.threshold } : { kind, enabled: false, day: suggested[kind], threshold: '0.00' };
  });
}

/** The checked rows (one per kind, in the product's order: the form keeps no kind) in the order of their days (the server refuses two on one day). */
function stepsOf(rows: Omit<StepRow, 'kind'>[]): DelinquencyStep[] {
  return rows
    .map((row, i) => ({ ...row, kind: kinds[i]! }))
    .filter((row) => row.enabled)
    .map((row) => ({ kind: row.kind, day: row.day ?? 0, threshold: (row.threshold ?? '').trim() }))
    .sort((a, b) => a.day - b.day);
}

/**
 * Delinquency: the steps the schedule takes on a renter who has not paid, each on a day after the
 * oldest unpaid invoice's due date while the past-due balance is above its threshold; the business's
 * schedule, or (a facility in the header's scope) that facility's own. Owners change it.
 */
export function DelinquencySettingsCard({ canChange }: { canChange: boolean }) {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const business = useDelinquencySettings(null);
  const scoped = useDelinquencySettings(facilityId);
  const update = useUpdateDelinquencySettings();
  return (
    <Card title={<SettingsCardTitle icon={<WarningOutlined />} text="Delinquency" />} data-testid="delinquency-settings-card">
      <Typography.Paragraph type="secondary">
        {selectedFacility
          ? `The steps taken on renters of ${selectedFacility.name} who have not paid. Choose All Facilities in the header to change the business's schedule.`
          : 'The steps taken on a renter who has not paid, counted in days after the due date of their oldest unpaid invoice. A step fires while the past-due balance is above its threshold; paying down to the Lockout threshold stops the schedule and restores access.'}
      </Typography.Paragraph>
      <ScopedSettings facilityId={facilityId} business={business} scoped={scoped} skeletonRows={5} errorTitle="Could not load the delinquency schedule">
        {(props) => <DelinquencySettingsForm {...props} canChange={canChange} update={update} />}
      </ScopedSettings>
    </Card>
  );
}

type FormProps = ScopedFormProps<DelinquencySettingsAnswer> & {
  canChange: boolean;
  update: ReturnType<typeof useUpdateDelinquencySettings>;
};

function DelinquencySettingsForm({ facilityId, businessEffective, scoped, canChange, update }: FormProps) {
  const [form] = Form.useForm<DelinquencyFormValues>();
  const toast = useToast();
  const { followsBusiness, following } = useFollowBusiness(form, facilityId, scoped);
  const rows = Form.useWatch('steps', form) ?? rowsOf(scoped.effective);

  const save = (values: DelinquencyFormValues) => {
    const steps = facilityId !== null && values.followBusiness ? null : stepsOf(values.steps);
    update.mutate({ facilityId, steps }, toast.outcome('Delinquency schedule saved successfully', 'Failed to save the delinquency schedule'));
  };

  return (
    <Form<DelinquencyFormValues>
      form={form}
      name="delinquencySettings"
      layout="vertical"
      initialValues={{ followBusiness: followsBusiness, steps: rowsOf(scoped.effective) }}
      onFinish={save}
      disabled={!canChange || update.isPending}
    >
      <FollowBusinessSwitch
        facilityId={facilityId}
        id="follow-business-schedule-label"
        label="Use the business's schedule"
        offMeans="Off: this facility has a schedule of its own"
        onChange={(follow) => follow && form.setFieldsValue({ steps: rowsOf(businessEffective) })}
      />
      <Form.List name="steps">
        {(fields) => (
          <Table<(typeof fields)[number]>
            size="small"
            pagination={false}
            rowKey="key"
            dataSource={fields}
            columns={[
              {
                title: 'Step',
                render: (_, field) => (
                  <Form.Item name={[field.name, 'enabled']} valuePropName="checked" noStyle>
                    <Checkbox disabled={following || undefined}>{delinquencyStepLabels[rows[field.name]?.kind ?? kinds[field.name]!]}</Checkbox>
                  </Form.Item>
                ),
              },
              {
                title: 'Day After Due Date',
                render: (_, field) => (
                  <Form.Item
                    name={[field.name, 'day']}
                    style={{ margin: 0 }}
                    rules={rows[field.name]?.enabled ? [{ required: true, message: 'Day is required' }, contractRule('Day', stepFields.day)] : []}
                  >
                    <InputNumber
                      aria-label={`${delinquencyStepLabels[kinds[field.name]!]} day`}
                      min={1}
                      max={365}
                      precision={0}
                      disabled={following || !rows[field.name]?.enabled || undefined}
                    />
                  </Form.Item>
                ),
              },
              {
                title: 'Fires While Past Due Is Above',
                render: (_, field) => (
                  <Form.Item
                    name={[field.name, 'threshold']}
                    style={{ margin: 0 }}
                    rules={rows[field.name]?.enabled ? [contractRule('Threshold', stepFields.threshold)] : []}
                  >
                    <Input
                      aria-label={`${delinquencyStepLabels[kinds[field.name]!]} threshold`}
                      prefix="$"
                      inputMode="decimal"
                      placeholder="0.00"
                      style={{ maxWidth: 140 }}
                      disabled={following || !rows[field.name]?.enabled || undefined}
                    />
                  </Form.Item>
                ),
              },
            ]}
          />
        )}
      </Form.List>
      {following && <Alert type="info" showIcon style={{ margin: '16px 0' }} title="This facility uses the business's delinquency schedule." />}
      <Flex justify="flex-end" style={{ marginTop: 16 }}>
        {canChange ? (
          <Button type="primary" htmlType="submit" loading={update.isPending}>
            Save Delinquency Schedule
          </Button>
        ) : (
          <Typography.Text type="secondary">Only owners can change the delinquency schedule.</Typography.Text>
        )}
      </Flex>
    </Form>
  );
}
