import { CalendarOutlined } from '@ant-design/icons';
import { BillingSettings, type BillingSettingsAnswer, LateFeeRule, SalesTaxRates } from '@storage/contracts/billing';
import { Alert, Card, Divider, Form, type FormRule, Input, InputNumber, Radio, Select, Switch, Typography } from 'antd';
import type { ZodType } from 'zod';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useBillingSettings, useUpdateBillingSettings } from '../api/billing-settings.ts';
import { FollowBusinessSwitch, type ScopedFormProps, ScopedSettings, useFollowBusiness } from './scoped-settings.tsx';
import { SettingsCardTitle } from './settings-card-title.tsx';
import { SettingsFormFooter } from './settings-form-footer.tsx';

type BillingFormValues = {
  /** With a facility in scope: it follows the business's settings (no settings of its own). */
  followBusiness: boolean;
  billingDay: BillingSettings['billingDay'];
  issueDaysBefore: number | null;
  graceDays: number | null;
  lateFeeKind: LateFeeRule['kind'];
  lateFeeAmount: string;
  lateFeePercent: string;
  lateFeeMinimum: string;
  adminFee: string;
  prorateFirstMonth: boolean;
  billNextMonthAfterDay: number | null;
  moveOutCredit: boolean;
  signatureBeforeAccess: boolean;
  rentChangeNoticeDays: number | null;
  taxRent: string;
  taxAdminFee: string;
  taxLateFee: string;
  taxMerchandise: string;
};

const fields = BillingSettings.shape;
const taxFields = SalesTaxRates.shape;

/** A tax rate as the contract takes it; left empty it is no tax (saved as 0). */
const taxRule = (label: string, schema: ZodType): FormRule => ({
  validator: async (_rule, value: unknown) => {
    if (typeof value === 'string' && value.trim() === '') return;
    const result = schema.safeParse(value ?? '');
    if (!result.success) throw new Error(`${label} ${result.error.issues[0]?.message ?? 'is invalid'}`);
  },
});
const [fixedFee, percentFee] = LateFeeRule.options;

const billingDayOptions = [
  { value: 'first', label: '1st of the month' },
  { value: 'anniversary', label: 'Lease anniversary (the day the lease started)' },
];

function formValuesOf(settings: BillingSettings, followBusiness: boolean): BillingFormValues {
  const { lateFee } = settings;
  return {
    followBusiness,
    billingDay: settings.billingDay,
    issueDaysBefore: settings.issueDaysBefore,
    graceDays: settings.graceDays,
    lateFeeKind: lateFee.kind,
    lateFeeAmount: lateFee.kind === 'fixed' ? lateFee.amount : '25.00',
    lateFeePercent: lateFee.kind === 'percent' ? lateFee.percent : '10',
    lateFeeMinimum: lateFee.kind === 'percent' ? lateFee.minimum : lateFee.amount,
    adminFee: settings.adminFee,
    prorateFirstMonth: settings.prorateFirstMonth,
    billNextMonthAfterDay: settings.billNextMonthAfterDay,
    moveOutCredit: settings.moveOutCredit ?? false,
    signatureBeforeAccess: settings.signatureBeforeAccess ?? false,
    rentChangeNoticeDays: settings.rentChangeNoticeDays,
    taxRent: settings.salesTax.rent,
    taxAdminFee: settings.salesTax.adminFee,
    taxLateFee: settings.salesTax.lateFee,
    taxMerchandise: settings.salesTax.merchandise,
  };
}

function settingsOf(values: BillingFormValues): BillingSettings {
  return {
    billingDay: values.billingDay,
    issueDaysBefore: values.issueDaysBefore ?? 0,
    graceDays: values.graceDays ?? 0,
    lateFee:
      values.lateFeeKind === 'fixed'
        ? { kind: 'fixed', amount: values.lateFeeAmount.trim() }
        : { kind: 'percent', percent: values.lateFeePercent.trim(), minimum: values.lateFeeMinimum.trim() },
    adminFee: values.adminFee.trim(),
    prorateFirstMonth: values.prorateFirstMonth,
    billNextMonthAfterDay: values.billNextMonthAfterDay ?? null,
    moveOutCredit: values.moveOutCredit,
    signatureBeforeAccess: values.signatureBeforeAccess,
    rentChangeNoticeDays: values.rentChangeNoticeDays ?? 0,
    // Empty is no tax.
    salesTax: {
      rent: values.taxRent.trim() || '0',
      adminFee: values.taxAdminFee.trim() || '0',
      lateFee: values.taxLateFee.trim() || '0',
      merchandise: values.taxMerchandise.trim() || '0',
    },
  };
}

const requiredNumber = (label: string) => ({ required: true, message: `${label} is required` });

/**
 * Billing: the business's settings, or (with a facility in the header's scope) that facility's
 * own, or the switch that has it follow the business's. A fixed late fee is also the Payments
 * card's late fee (the server keeps them one).
 */
export function BillingSettingsCard({ canChange }: { canChange: boolean }) {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const business = useBillingSettings(null);
  const scoped = useBillingSettings(facilityId);
  // Here, not in the form: a save starts the form again from the answer, and the outcome is still told.
  const updateBillingSettings = useUpdateBillingSettings();
  const subject = selectedFacility ? selectedFacility.name : 'all facilities';

  return (
    <Card title={<SettingsCardTitle icon={<CalendarOutlined />} text="Billing" />} data-testid="billing-settings-card">
      <Typography.Paragraph type="secondary">
        {selectedFacility
          ? `Rent, fees and due dates at ${subject}. Choose All Facilities in the header to change the business's settings.`
          : 'Rent, fees and due dates for every facility that does not have settings of its own. Choose a facility in the header to give it its own.'}
      </Typography.Paragraph>
      <ScopedSettings facilityId={facilityId} business={business} scoped={scoped} skeletonRows={6} errorTitle="Could not load billing settings">
        {(props) => <BillingSettingsForm {...props} canChange={canChange} updateBillingSettings={updateBillingSettings} />}
      </ScopedSettings>
    </Card>
  );
}

type BillingSettingsFormProps = ScopedFormProps<BillingSettingsAnswer> & {
  canChange: boolean;
  updateBillingSettings: ReturnType<typeof useUpdateBillingSettings>;
};

function BillingSettingsForm({ facilityId, businessEffective, scoped, canChange, updateBillingSettings }: BillingSettingsFormProps) {
  const [form] = Form.useForm<BillingFormValues>();
  const toast = useToast();
  const { followsBusiness, following: followingBusiness } = useFollowBusiness(form, facilityId, scoped);
  const lateFeeKind = Form.useWatch('lateFeeKind', form) ?? scoped.effective.lateFee.kind;
  // True or left out: false would undo the form's own disabling (a read-only role, a save under way).
  const fieldsDisabled = followingBusiness || undefined;

  const save = (values: BillingFormValues) => {
    const settings = facilityId !== null && values.followBusiness ? null : settingsOf(values);
    updateBillingSettings.mutate({ facilityId, settings }, toast.outcome('Billing settings saved successfully', 'Failed to save billing settings'));
  };

  const switchFollow = (follow: boolean) => {
    // Following shows the business's settings; one's own start from them.
    if (follow) form.setFieldsValue(formValuesOf(businessEffective, true));
  };

  return (
    <Form<BillingFormValues>
      form={form}
      name="billingSettings"
      layout="vertical"
      initialValues={formValuesOf(scoped.effective, followsBusiness)}
      onFinish={save}
      disabled={!canChange || updateBillingSettings.isPending}
    >
      <FollowBusinessSwitch
        facilityId={facilityId}
        id="follow-business-label"
        label="Use the business's settings"
        offMeans="Off: this facility has billing settings of its own"
        onChange={switchFollow}
      />

      <FieldGrid>
        <GridField label="Billing Day" name="billingDay" required>
          <Select options={billingDayOptions} disabled={fieldsDisabled} />
        </GridField>
        <GridField
          label="Days Before Due an Invoice Is Issued"
          name="issueDaysBefore"
          required
          rules={[requiredNumber('Days before due'), contractRule('Days before due', fields.issueDaysBefore)]}
        >
          <InputNumber min={0} max={28} precision={0} style={{ width: '100%' }} disabled={fieldsDisabled} />
        </GridField>
        <GridField
          label="Grace Days Before the Late Fee"
          name="graceDays"
          required
          extra="With 10, rent due on the 1st gets its late fee on the 11th"
          rules={[requiredNumber('Grace days'), contractRule('Grace days', fields.graceDays)]}
        >
          <InputNumber min={0} max={60} precision={0} style={{ width: '100%' }} disabled={fieldsDisabled} />
        </GridField>
        <GridField label="Admin Fee at Move-In" name="adminFee" required rules={[contractRule('Admin fee', fields.adminFee)]}>
          <Input prefix="$" inputMode="decimal" placeholder="0.00" disabled={fieldsDisabled} />
        </GridField>
        <GridField label="Late Fee" name="lateFeeKind" wide>
          <Radio.Group
            disabled={fieldsDisabled}
            options={[
              { value: 'fixed', label: 'Fixed amount' },
              { value: 'percent', label: 'Percent of the rent, with a minimum' },
            ]}
          />
        </GridField>
        {lateFeeKind === 'fixed' ? (
          <GridField
            label="Fixed Late Fee"
            name="lateFeeAmount"
            required
            extra="Also the Payment Settings' late fee"
            rules={[contractRule('Late fee amount', fixedFee.shape.amount)]}
          >
            <Input prefix="$" inputMode="decimal" placeholder="25.00" disabled={fieldsDisabled} />
          </GridField>
        ) : (
          <>
            <GridField label="Late Fee Percent" name="lateFeePercent" required rules={[contractRule('Late fee percent', percentFee.shape.percent)]}>
              <Input suffix="%" inputMode="decimal" placeholder="10" disabled={fieldsDisabled} />
            </GridField>
            <GridField label="Minimum Late Fee" name="lateFeeMinimum" required rules={[contractRule('Minimum late fee', percentFee.shape.minimum)]}>
              <Input prefix="$" inputMode="decimal" placeholder="25.00" disabled={fieldsDisabled} />
            </GridField>
          </>
        )}
        <GridField
          label="Also Bill Next Month for Move-Ins After Day"
          name="billNextMonthAfterDay"
          extra="Empty: a move-in pays only its first month"
          rules={[contractRule('Day of the month', fields.billNextMonthAfterDay)]}
        >
          <InputNumber min={1} max={28} precision={0} placeholder="Never" style={{ width: '100%' }} disabled={fieldsDisabled} />
        </GridField>
        <GridField
          label="Rent Change Notice Days"
          name="rentChangeNoticeDays"
          required
          extra="A rent change takes effect no sooner than this many days after its notice"
          rules={[requiredNumber('Rent change notice days'), contractRule('Rent change notice days', fields.rentChangeNoticeDays)]}
        >
          <InputNumber min={0} max={365} precision={0} style={{ width: '100%' }} disabled={fieldsDisabled} />
        </GridField>
        <GridField
          label="Prorate the First Month"
          name="prorateFirstMonth"
          valuePropName="checked"
          extra="Billing on the 1st: a move-in pays the days left in its month"
        >
          <Switch disabled={fieldsDisabled} />
        </GridField>
        <GridField
          label="Credit Unused Days at Move-Out"
          name="moveOutCredit"
          valuePropName="checked"
          extra="A move-out before the end of a period already invoiced credits the days left"
        >
          <Switch disabled={fieldsDisabled} />
        </GridField>
        <GridField
          label="Gate Access Waits for a Signed Lease"
          name="signatureBeforeAccess"
          valuePropName="checked"
          extra="A move-in's gate code opens the gate once the renter signed the lease (online or at the desk)"
        >
          <Switch disabled={fieldsDisabled} />
        </GridField>
      </FieldGrid>
      <Divider titlePlacement="start" style={{ margin: '8px 0 16px' }}>
        Sales Tax
      </Divider>
      <Typography.Paragraph type="secondary">
        Percent of each charge, added to invoices as a line of its own (0: no tax). Deposits and protection premiums are never taxed; a promotion's discount
        lowers the rent's tax; invoices already issued keep their tax.
      </Typography.Paragraph>
      <FieldGrid>
        <GridField label="Tax on Rent" name="taxRent" extra="Also on prorated rent" rules={[taxRule('Tax on rent', taxFields.rent)]}>
          <Input suffix="%" inputMode="decimal" placeholder="0" disabled={fieldsDisabled} />
        </GridField>
        <GridField label="Tax on the Admin Fee" name="taxAdminFee" rules={[taxRule('Tax on the admin fee', taxFields.adminFee)]}>
          <Input suffix="%" inputMode="decimal" placeholder="0" disabled={fieldsDisabled} />
        </GridField>
        <GridField label="Tax on the Late Fee" name="taxLateFee" rules={[taxRule('Tax on the late fee', taxFields.lateFee)]}>
          <Input suffix="%" inputMode="decimal" placeholder="0" disabled={fieldsDisabled} />
        </GridField>
        <GridField label="Tax on Merchandise" name="taxMerchandise" rules={[taxRule('Tax on merchandise', taxFields.merchandise)]}>
          <Input suffix="%" inputMode="decimal" placeholder="0" disabled={fieldsDisabled} />
        </GridField>
      </FieldGrid>
      {followingBusiness && <Alert type="info" showIcon style={{ marginBottom: 16 }} title="This facility uses the business's billing settings." />}
      <SettingsFormFooter canChange={canChange} saving={updateBillingSettings.isPending} saveLabel="Save Billing Settings" />
    </Form>
  );
}
