import { DeleteOutlined, PlusOutlined, SafetyOutlined } from '@ant-design/icons';
import { ProtectionPlan, ProtectionSettings, type ProtectionSettingsAnswer } from '@storage/contracts/protection';
import { Alert, Button, Card, Flex, Form, Input, InputNumber, Select, Table, Typography } from 'antd';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useProtectionSettings, useUpdateProtectionSettings } from '../api/protection-settings.ts';
import { FollowBusinessSwitch, type ScopedFormProps, ScopedSettings, useFollowBusiness } from './scoped-settings.tsx';
import { SettingsCardTitle } from './settings-card-title.tsx';
import { SettingsFormFooter } from './settings-form-footer.tsx';

type PlanRow = { planId: string; name: string; coverageAmount: string; monthlyPremium: string };
type ProtectionFormValues = {
  /** With a facility in scope: it follows the business's plans (none of its own). */
  followBusiness: boolean;
  plans: PlanRow[];
  /** NO_DEFAULT: no default plan. */
  defaultPlanId: string;
  enrollAfterDays: number | null;
};

const MAX_PLANS = 12;
const NO_DEFAULT = '';
const planFields = ProtectionPlan.shape;
const settingsFields = ProtectionSettings.shape;
/** The form's words for each field the contract may refuse. */
const planLabels: Record<string, string> = { name: 'Name', coverageAmount: 'Coverage', monthlyPremium: 'Monthly premium' };
const settingsLabels: Record<string, string> = { defaultPlanId: 'Default plan', enrollAfterDays: 'Days' };

function formValuesOf(settings: ProtectionSettings, followBusiness: boolean): ProtectionFormValues {
  return {
    followBusiness,
    plans: settings.plans.map((plan) => ({ ...plan })),
    defaultPlanId: settings.defaultPlanId ?? NO_DEFAULT,
    enrollAfterDays: settings.enrollAfterDays,
  };
}

function settingsOf(values: ProtectionFormValues): ProtectionSettings {
  return {
    plans: (values.plans ?? []).map((plan) => ({
      planId: plan.planId,
      name: plan.name.trim(),
      coverageAmount: plan.coverageAmount.trim(),
      monthlyPremium: plan.monthlyPremium.trim(),
    })),
    defaultPlanId: values.defaultPlanId === NO_DEFAULT ? null : values.defaultPlanId,
    enrollAfterDays: values.enrollAfterDays ?? null,
  };
}

/**
 * Protection Plans: the tiers of tenant protection renters may choose, each with its coverage and
 * monthly premium, and the plan renters are enrolled in when they have neither a plan nor proof of
 * their own insurance; the business's, or (a facility in the header's scope) that facility's own.
 */
export function ProtectionSettingsCard({ canChange }: { canChange: boolean }) {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const business = useProtectionSettings(null);
  const scoped = useProtectionSettings(facilityId);
  const update = useUpdateProtectionSettings();

  return (
    <Card title={<SettingsCardTitle icon={<SafetyOutlined />} text="Protection Plans" />} data-testid="protection-settings-card">
      <Typography.Paragraph type="secondary">
        {selectedFacility
          ? `The protection plans renters at ${selectedFacility.name} may choose. Choose All Facilities in the header to change the business's plans.`
          : 'The protection plans renters may choose, billed every month with the rent, at every facility that does not have plans of its own. Choose a facility in the header to give it its own.'}
      </Typography.Paragraph>
      <ScopedSettings facilityId={facilityId} business={business} scoped={scoped} skeletonRows={4} errorTitle="Could not load protection plans">
        {(props) => <ProtectionSettingsForm {...props} canChange={canChange} update={update} />}
      </ScopedSettings>
    </Card>
  );
}

type ProtectionSettingsFormProps = ScopedFormProps<ProtectionSettingsAnswer> & {
  canChange: boolean;
  update: ReturnType<typeof useUpdateProtectionSettings>;
};

function ProtectionSettingsForm({ facilityId, businessEffective, scoped, canChange, update }: ProtectionSettingsFormProps) {
  const [form] = Form.useForm<ProtectionFormValues>();
  const toast = useToast();
  const { followsBusiness, following } = useFollowBusiness(form, facilityId, scoped);
  const plans: PlanRow[] = Form.useWatch('plans', form) ?? scoped.effective.plans;
  // True or left out: false would undo the form's own disabling (a read-only role, a save under way).
  const fieldsDisabled = following || undefined;
  const editable = canChange && !following;

  const save = (values: ProtectionFormValues) => {
    if (facilityId !== null && values.followBusiness) {
      update.mutate({ facilityId, settings: null }, toast.outcome('Protection plans saved successfully', 'Failed to save protection plans'));
      return;
    }
    const settings = settingsOf(values);
    // What one field cannot see: two plans of one name, a default plan to enroll renters in.
    const checked = ProtectionSettings.safeParse(settings);
    if (!checked.success) {
      form.setFields(
        checked.error.issues.map((issue) => {
          const [first, index, field] = issue.path;
          const inPlan = first === 'plans' && typeof index === 'number' && typeof field === 'string';
          const label = inPlan ? planLabels[field] : settingsLabels[String(first)];
          return { name: (inPlan ? ['plans', index, field] : [String(first)]) as never, errors: [`${label ?? 'Plans'} ${issue.message}`] };
        }),
      );
      return;
    }
    update.mutate({ facilityId, settings: checked.data }, toast.outcome('Protection plans saved successfully', 'Failed to save protection plans'));
  };

  const switchFollow = (follow: boolean) => {
    // Following shows the business's plans; one's own start from them.
    if (follow) form.setFieldsValue(formValuesOf(businessEffective, true));
  };

  const defaultOptions = [
    { value: NO_DEFAULT, label: 'None' },
    ...plans.filter((plan) => plan?.name?.trim()).map((plan) => ({ value: plan.planId, label: plan.name.trim() })),
  ];

  return (
    <Form<ProtectionFormValues>
      form={form}
      name="protectionSettings"
      layout="vertical"
      initialValues={formValuesOf(scoped.effective, followsBusiness)}
      onFinish={save}
      disabled={!canChange || update.isPending}
    >
      <FollowBusinessSwitch
        facilityId={facilityId}
        id="follow-business-plans-label"
        label="Use the business's plans"
        offMeans="Off: this facility has protection plans of its own"
        onChange={switchFollow}
      />
      <Form.List name="plans">
        {(fields, { add, remove }) => (
          <>
            <Table<(typeof fields)[number]>
              size="small"
              pagination={false}
              rowKey="key"
              dataSource={fields}
              locale={{ emptyText: <Typography.Text type="secondary">No protection plans</Typography.Text> }}
              style={{ marginBottom: 16 }}
              columns={[
                {
                  title: 'Plan',
                  render: (_, field) => (
                    <>
                      <Form.Item name={[field.name, 'planId']} hidden>
                        <Input />
                      </Form.Item>
                      <Form.Item name={[field.name, 'name']} style={{ margin: 0 }} rules={[contractRule('Name', planFields.name)]}>
                        <Input aria-label={`Plan ${field.name + 1} name`} placeholder="Basic" disabled={fieldsDisabled} />
                      </Form.Item>
                    </>
                  ),
                },
                {
                  title: 'Coverage',
                  render: (_, field) => (
                    <Form.Item name={[field.name, 'coverageAmount']} style={{ margin: 0 }} rules={[contractRule('Coverage', planFields.coverageAmount)]}>
                      <Input aria-label={`Plan ${field.name + 1} coverage`} prefix="$" inputMode="decimal" placeholder="2000.00" disabled={fieldsDisabled} />
                    </Form.Item>
                  ),
                },
                {
                  title: 'Monthly Premium',
                  render: (_, field) => (
                    <Form.Item name={[field.name, 'monthlyPremium']} style={{ margin: 0 }} rules={[contractRule('Monthly premium', planFields.monthlyPremium)]}>
                      <Input
                        aria-label={`Plan ${field.name + 1} monthly premium`}
                        prefix="$"
                        inputMode="decimal"
                        placeholder="12.00"
                        disabled={fieldsDisabled}
                      />
                    </Form.Item>
                  ),
                },
                ...(editable
                  ? [
                      {
                        key: 'remove',
                        width: 48,
                        render: (_: unknown, field: (typeof fields)[number]) => (
                          <Button
                            type="text"
                            icon={<DeleteOutlined />}
                            aria-label={`Remove ${plans[field.name]?.name?.trim() || `plan ${field.name + 1}`}`}
                            onClick={() => {
                              if (form.getFieldValue('defaultPlanId') === plans[field.name]?.planId) form.setFieldValue('defaultPlanId', NO_DEFAULT);
                              remove(field.name);
                            }}
                          />
                        ),
                      },
                    ]
                  : []),
              ]}
            />
            {editable && (
              <Flex align="center" gap={12} style={{ marginBottom: 16 }}>
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  disabled={fields.length >= MAX_PLANS}
                  onClick={() => add({ planId: crypto.randomUUID(), name: '', coverageAmount: '', monthlyPremium: '' } satisfies PlanRow)}
                >
                  Add Plan
                </Button>
                {fields.length >= MAX_PLANS && <Typography.Text type="secondary">At most {MAX_PLANS} plans</Typography.Text>}
              </Flex>
            )}
          </>
        )}
      </Form.List>
      <FieldGrid>
        <GridField label="Default Plan" name="defaultPlanId" extra="The plan renters are enrolled in when they have none">
          <Select options={defaultOptions} disabled={fieldsDisabled} />
        </GridField>
        <GridField
          label="Enroll Renters Without a Plan or Proof of Insurance After"
          name="enrollAfterDays"
          extra="A number of days after the move-in, into the default plan. Empty: never"
          rules={[contractRule('Days', settingsFields.enrollAfterDays)]}
        >
          <InputNumber min={1} max={365} precision={0} placeholder="Never" style={{ width: '100%' }} disabled={fieldsDisabled} />
        </GridField>
      </FieldGrid>
      {following && <Alert type="info" showIcon style={{ marginBottom: 16 }} title="This facility uses the business's protection plans." />}
      <SettingsFormFooter canChange={canChange} saving={update.isPending} saveLabel="Save Protection Plans" />
    </Form>
  );
}
