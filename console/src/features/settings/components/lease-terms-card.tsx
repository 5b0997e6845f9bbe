import { DeleteOutlined, FileTextOutlined, PlusOutlined } from '@ant-design/icons';
import { GENERATED_LEASE_TERMS, LeaseTerms, type LeaseTermsAnswer, MAX_ADDITIONAL_TERMS } from '@storage/contracts/lease-terms';
import { Alert, Button, Card, Flex, Form, Input, Typography } from 'antd';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useLeaseTerms, useUpdateLeaseTerms } from '../api/lease-terms.ts';
import { FollowBusinessSwitch, type ScopedFormProps, ScopedSettings, useFollowBusiness } from './scoped-settings.tsx';
import { SettingsCardTitle } from './settings-card-title.tsx';
import { SettingsFormFooter } from './settings-form-footer.tsx';

type LeaseTermsFormValues = {
  /** With a facility in scope: it follows the business's terms (none of its own). */
  followBusiness: boolean;
  terms: string[];
};

const termField = LeaseTerms.shape.additionalTerms.element;
/** The number the agreement gives the additional term at `index`: they follow the generated ones. */
const termNumber = (index: number) => GENERATED_LEASE_TERMS + index + 1;

function formValuesOf(terms: LeaseTerms, followBusiness: boolean): LeaseTermsFormValues {
  return { followBusiness, terms: [...terms.additionalTerms] };
}

/**
 * Lease Agreement: the terms an owner adds to the agreement renters sign, after the ones generated
 * from the billing settings and the access hours; the business's, or (a facility in the header's
 * scope) that facility's own.
 */
export function LeaseTermsCard({ canChange }: { canChange: boolean }) {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const business = useLeaseTerms(null);
  const scoped = useLeaseTerms(facilityId);
  const update = useUpdateLeaseTerms();

  return (
    <Card title={<SettingsCardTitle icon={<FileTextOutlined />} text="Lease Agreement" />} data-testid="lease-terms-card">
      <Typography.Paragraph type="secondary">
        {selectedFacility
          ? `Terms of your own that the lease agreement at ${selectedFacility.name} adds to the generated ones. Choose All Facilities in the header to change the business's terms.`
          : 'Terms of your own that the lease agreement adds to the generated ones, at every facility that does not have terms of its own. Choose a facility in the header to give it its own.'}{' '}
        Changing the terms changes the agreement renters sign from now on; leases signed before keep the agreement they signed.
      </Typography.Paragraph>
      <ScopedSettings facilityId={facilityId} business={business} scoped={scoped} skeletonRows={3} errorTitle="Could not load the lease agreement terms">
        {(props) => <LeaseTermsForm {...props} canChange={canChange} update={update} />}
      </ScopedSettings>
    </Card>
  );
}

type LeaseTermsFormProps = ScopedFormProps<LeaseTermsAnswer> & {
  canChange: boolean;
  update: ReturnType<typeof useUpdateLeaseTerms>;
};

function LeaseTermsForm({ facilityId, businessEffective, scoped, canChange, update }: LeaseTermsFormProps) {
  const [form] = Form.useForm<LeaseTermsFormValues>();
  const toast = useToast();
  const { followsBusiness, following } = useFollowBusiness(form, facilityId, scoped);
  const terms: string[] = Form.useWatch('terms', form) ?? scoped.effective.additionalTerms;
  // True or left out: false would undo the form's own disabling (a read-only role, a save under way).
  const fieldsDisabled = following || undefined;
  const editable = canChange && !following;
  const outcome = () => toast.outcome('Lease agreement terms saved successfully', 'Failed to save the lease agreement terms');

  const save = (values: LeaseTermsFormValues) => {
    if (facilityId !== null && values.followBusiness) {
      update.mutate({ facilityId, terms: null }, outcome());
      return;
    }
    update.mutate({ facilityId, terms: { additionalTerms: (values.terms ?? []).map((term) => term.trim()) } }, outcome());
  };

  const switchFollow = (follow: boolean) => {
    // Following shows the business's terms; one's own start from them.
    if (follow) form.setFieldsValue(formValuesOf(businessEffective, true));
  };

  return (
    <Form<LeaseTermsFormValues>
      form={form}
      name="leaseTerms"
      layout="vertical"
      initialValues={formValuesOf(scoped.effective, followsBusiness)}
      onFinish={save}
      disabled={!canChange || update.isPending}
    >
      <FollowBusinessSwitch
        facilityId={facilityId}
        id="follow-business-lease-terms-label"
        label="Use the business's terms"
        offMeans="Off: this facility's agreement has terms of its own"
        onChange={switchFollow}
      />
      <Typography.Paragraph>
        The agreement's terms: the {GENERATED_LEASE_TERMS} generated from your billing settings,{' '}
        {terms.length === 0 ? 'and no additional terms.' : 'then these.'}
      </Typography.Paragraph>
      <Form.List name="terms">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field) => (
              <Flex key={field.key} gap={8} align="flex-start">
                <Form.Item
                  name={field.name}
                  label={`Term ${termNumber(field.name)}`}
                  style={{ flex: 1 }}
                  rules={[contractRule(`Term ${termNumber(field.name)}`, termField)]}
                >
                  <Input.TextArea autoSize={{ minRows: 1, maxRows: 6 }} maxLength={1000} disabled={fieldsDisabled} />
                </Form.Item>
                {editable && (
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={`Remove term ${termNumber(field.name)}`}
                    style={{ marginTop: 30 }}
                    onClick={() => remove(field.name)}
                  />
                )}
              </Flex>
            ))}
            {editable && (
              <Flex align="center" gap={12} style={{ marginBottom: 16 }}>
                <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length >= MAX_ADDITIONAL_TERMS} onClick={() => add('')}>
                  Add Term
                </Button>
                {fields.length >= MAX_ADDITIONAL_TERMS && <Typography.Text type="secondary">At most {MAX_ADDITIONAL_TERMS} terms</Typography.Text>}
              </Flex>
            )}
          </>
        )}
      </Form.List>
      {following && <Alert type="info" showIcon style={{ marginBottom: 16 }} title="This facility uses the business's lease agreement terms." />}
      <SettingsFormFooter canChange={canChange} saving={update.isPending} saveLabel="Save Lease Agreement" />
    </Form>
  );
}
