import { RiseOutlined } from '@ant-design/icons';
import { BulkRentChangeRequest, type PlannedRentChange, type RentAdjustmentKind, type RentChangePlan } from '@storage/contracts/rent-changes';
import { Alert, Button, Empty, Flex, Form, Input, InputNumber, Modal, Radio, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { useFacilities } from '../../../lib/facilities.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useBulkRentChange, usePreviewRentChanges, useRentChangeTerms } from '../api/rent-changes.ts';

type IncreaseValues = {
  facilityId: string | undefined;
  minMonthsAtRate: number | null;
  kind: RentAdjustmentKind;
  value: string;
  effectiveDate: string;
  reason: string;
};

const fields = BulkRentChangeRequest.shape;

const column = dataTableColumns<PlannedRentChange>();
const planColumns = column.columns([
  column.display({ id: 'customer', header: 'Customer', cell: ({ row }) => `${row.original.customer.firstName} ${row.original.customer.lastName}` }),
  column.display({ id: 'unit', header: 'Unit', cell: ({ row }) => row.original.unit.unitNumber }),
  column.accessor('currentRate', { header: 'Current Rate', cell: (info) => formatDollars(info.getValue()) }),
  column.accessor('newRate', { header: 'New Rate', cell: (info) => formatDollars(info.getValue()) }),
  column.accessor('monthsAtRate', { header: 'Months at Rate' }),
]);

/** "Rent Increase": every lease of a facility at the same rate for N months, by a percentage or an amount, previewed before it is scheduled. */
export function RentIncreaseButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<RiseOutlined />} onClick={() => setOpen(true)}>
        Rent Increase
      </Button>
      <Modal open={open} title="Rent Increase" footer={null} onCancel={() => setOpen(false)} destroyOnHidden width={760}>
        <RentIncreaseForm onDone={() => setOpen(false)} />
      </Modal>
    </>
  );
}

/** Made anew on each opening, with its own idempotency key: a double submit schedules each lease once. */
function RentIncreaseForm({ onDone }: { onDone: () => void }) {
  const [form] = Form.useForm<IncreaseValues>();
  const [key] = useState(() => crypto.randomUUID());
  const { selectedFacility } = useFacilityScope();
  const facilities = useFacilities();
  const facilityId = Form.useWatch('facilityId', form) ?? selectedFacility?.id ?? null;
  const kind = Form.useWatch('kind', form) ?? 'percent';
  const terms = useRentChangeTerms(facilityId);
  const preview = usePreviewRentChanges();
  const bulk = useBulkRentChange();
  const toast = useToast();
  const [plan, setPlan] = useState<{ request: BulkRentChangeRequest; plan: RentChangePlan } | null>(null);

  // The earliest date the facility allows, once its terms are known (and whenever it changes).
  const earliest = terms.data?.earliestEffectiveDate;
  useEffect(() => {
    if (earliest) form.setFieldValue('effectiveDate', earliest);
  }, [earliest, form]);

  const requestOf = (values: IncreaseValues): BulkRentChangeRequest => ({
    facilityId: values.facilityId ?? '',
    minMonthsAtRate: values.minMonthsAtRate ?? 0,
    kind: values.kind,
    value: values.value.trim(),
    effectiveDate: values.effectiveDate,
    reason: values.reason.trim() || null,
  });

  const showPreview = (values: IncreaseValues) => {
    const request = requestOf(values);
    preview.mutate(request, { onSuccess: (answer) => setPlan({ request, plan: answer }), onError: (error) => toast.failure('Failed to preview', error) });
  };

  const confirm = () => {
    if (!plan) return;
    bulk.mutate(
      { request: plan.request, key },
      {
        onSuccess: (done) => {
          const skipped = done.skipped.length > 0 ? `; ${done.skipped.length} skipped` : '';
          toast.success(`${done.totals.leases} rent changes scheduled from ${formatDate(done.effectiveDate)}${skipped}`);
          onDone();
        },
        onError: (error) => toast.failure('Failed to schedule the rent changes', error),
      },
    );
  };

  return (
    <Form<IncreaseValues>
      form={form}
      layout="vertical"
      style={{ marginTop: 16 }}
      disabled={preview.isPending || bulk.isPending}
      initialValues={{ facilityId: selectedFacility?.id, minMonthsAtRate: 12, kind: 'percent', value: '', effectiveDate: '', reason: '' }}
      onFinish={showPreview}
      // A changed choice needs a new preview before anything is scheduled.
      onValuesChange={() => setPlan(null)}
    >
      <FieldGrid>
        <GridField label="Facility" name="facilityId" required rules={[{ required: true, message: 'Choose the facility' }]}>
          <Select
            loading={facilities.isPending}
            placeholder="Choose a facility"
            options={(facilities.data ?? []).map((facility) => ({ value: facility.id, label: facility.name }))}
          />
        </GridField>
        <GridField
          label="Same Rate for at Least (Months)"
          name="minMonthsAtRate"
          required
          rules={[{ required: true, message: 'Months is required' }, contractRule('Months', fields.minMonthsAtRate)]}
        >
          <InputNumber min={0} max={600} precision={0} style={{ width: '100%' }} />
        </GridField>
        <GridField label="Increase By" name="kind">
          <Radio.Group
            options={[
              { value: 'percent', label: 'Percentage' },
              { value: 'amount', label: 'Amount' },
            ]}
          />
        </GridField>
        <GridField
          label={kind === 'percent' ? 'Percent' : 'Amount'}
          name="value"
          required
          rules={[contractRule(kind === 'percent' ? 'Percent' : 'Amount', fields.value)]}
        >
          {kind === 'percent' ? <Input suffix="%" inputMode="decimal" placeholder="5" /> : <Input prefix="$" inputMode="decimal" placeholder="10.00" />}
        </GridField>
        <GridField
          label="Effective Date"
          name="effectiveDate"
          required
          extra={earliest ? `On or after ${formatDate(earliest)}` : undefined}
          rules={[contractRule('Effective date', fields.effectiveDate)]}
        >
          <Input type="date" min={earliest} />
        </GridField>
        <GridField label="Reason" name="reason" rules={[contractRule('Reason', fields.reason)]}>
          <Input autoComplete="off" placeholder="Optional, e.g. yearly review" />
        </GridField>
      </FieldGrid>
      {plan && <PlanPreview plan={plan.plan} />}
      <Flex justify="flex-end" gap={8} style={{ marginTop: 16 }}>
        <Button onClick={onDone} disabled={false}>
          Cancel
        </Button>
        <Button htmlType="submit" type={plan ? 'default' : 'primary'} loading={preview.isPending}>
          Preview
        </Button>
        {plan && (
          <Button type="primary" disabled={plan.plan.leases.length === 0} loading={bulk.isPending} onClick={confirm}>
            Schedule {plan.plan.totals.leases} Rent {plan.plan.totals.leases === 1 ? 'Change' : 'Changes'}
          </Button>
        )}
      </Flex>
    </Form>
  );
}

function PlanPreview({ plan }: { plan: RentChangePlan }) {
  const { totals } = plan;
  return (
    <Flex vertical gap={12} data-testid="rent-increase-preview">
      <DataTable
        label="Leases to change"
        compact
        columns={planColumns}
        rows={plan.leases}
        getRowId={(row) => row.leaseId}
        rowTestId="rent-increase-row"
        empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No lease qualifies" />}
      />
      <Typography.Text strong data-testid="rent-increase-totals">
        {totals.leases} {totals.leases === 1 ? 'lease' : 'leases'}: {formatDollars(totals.currentMonthly)} → {formatDollars(totals.newMonthly)} a month (+
        {formatDollars(totals.difference)}), from {formatDate(plan.effectiveDate)}
      </Typography.Text>
      {plan.skipped.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={`${plan.skipped.length} skipped`}
          description={
            <ul style={{ margin: 0, paddingLeft: 16 }}>
              {plan.skipped.map((s) => (
                <li key={s.leaseId}>
                  {s.customer.firstName} {s.customer.lastName}, unit {s.unit.unitNumber}: {s.reason}
                </li>
              ))}
            </ul>
          }
        />
      )}
    </Flex>
  );
}
