import { DeleteOutlined, EditOutlined, PlusOutlined, TagOutlined } from '@ant-design/icons';
import { type UnitSize, unitFormSizes } from '@storage/contracts/enums';
import {
  Promotion,
  type PromotionChannel,
  type PromotionKind,
  PromotionTerms,
  promotionChannelLabels,
  promotionTermsWords,
} from '@storage/contracts/promotions';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Card, Flex, Form, Input, InputNumber, Result, Select, Skeleton, Switch, Table, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { useFacilities } from '../../../lib/facilities.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { formatDate, formatPeriod } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { usePromotions, useUpdatePromotions } from '../api/promotions.ts';
import { SettingsCardTitle } from './settings-card-title.tsx';
import { SettingsFormFooter } from './settings-form-footer.tsx';

const MAX_PROMOTIONS = 50;
const fields = Promotion.shape;
const [percentTerms, amountTerms] = PromotionTerms.options;

const kindOptions: { value: PromotionKind; label: string }[] = [
  { value: 'percent_off', label: 'Percent off' },
  { value: 'amount_off', label: 'Amount off' },
  { value: 'fixed_price', label: 'Fixed price' },
];
const channelOptions = (Object.keys(promotionChannelLabels) as PromotionChannel[]).map((value) => ({ value, label: promotionChannelLabels[value] }));

/** The sizes the unit form offers, and any other a promotion already names. */
function sizeOptions(chosen: readonly UnitSize[]) {
  const offered = unitFormSizes.map((size) => ({ value: size.value, label: `${size.value} (${size.label})` }));
  const others = chosen.filter((size) => !offered.some((o) => o.value === size)).map((size) => ({ value: size, label: size }));
  return [...offered, ...others];
}

function daysInWords(promotion: Promotion): string {
  const { startsOn, endsOn } = promotion;
  if (startsOn && endsOn) return formatPeriod(startsOn, endsOn);
  if (startsOn) return `From ${formatDate(startsOn)}`;
  if (endsOn) return `Until ${formatDate(endsOn)}`;
  return 'Any move-in day';
}

/**
 * Promotions: the business's offers on rent (first month free, a percentage or an amount off, a
 * fixed price for some months), each with where and when it applies. They are edited here as a
 * list and saved together; a lease given one keeps its terms.
 */
export function PromotionsSettingsCard({ canChange }: { canChange: boolean }) {
  const { selectedFacility } = useFacilityScope();
  const promotions = usePromotions();
  const update = useUpdatePromotions();
  return (
    <Card title={<SettingsCardTitle icon={<TagOutlined />} text="Promotions" />} data-testid="promotions-settings-card">
      <Typography.Paragraph type="secondary">
        {selectedFacility
          ? `The business's promotions: those for all facilities, or naming ${selectedFacility.name}, are offered there.`
          : 'Offers on rent for new renters, online, at the desk or both. A lease given a promotion keeps its terms when the promotion changes.'}
      </Typography.Paragraph>
      {promotions.isPending && <Skeleton active paragraph={{ rows: 4 }} />}
      {promotions.isError && <Result status="error" title="Could not load promotions" subTitle={serverMessage(promotions.error)} />}
      {promotions.isSuccess && (
        <PromotionsForm
          // A new answer (a save) starts the list again from it.
          key={JSON.stringify(promotions.data.promotions)}
          saved={promotions.data.promotions}
          inFacility={selectedFacility !== null}
          canChange={canChange}
          update={update}
        />
      )}
    </Card>
  );
}

type PromotionsFormProps = {
  saved: Promotion[];
  inFacility: boolean;
  canChange: boolean;
  update: ReturnType<typeof useUpdatePromotions>;
};

/** Which promotion the dialog edits: an index of the list, or a new one. */
type Editing = { index: number | null };

function PromotionsForm({ saved, inFacility, canChange, update }: PromotionsFormProps) {
  const [list, setList] = useState<Promotion[]>(saved);
  const [editing, setEditing] = useState<Editing | null>(null);
  const facilities = useFacilities();
  const toast = useToast();
  const changed = JSON.stringify(list) !== JSON.stringify(saved);
  const facilityName = (id: string) => facilities.data?.find((f) => f.id === id)?.name ?? 'Unknown facility';

  const save = () => update.mutate({ promotions: list }, toast.outcome('Promotions saved successfully', 'Failed to save promotions'));
  const put = (promotion: Promotion) => {
    const index = editing?.index ?? null;
    setList((current) => (index === null ? [...current, promotion] : current.map((p, i) => (i === index ? promotion : p))));
    setEditing(null);
  };

  return (
    <>
      <Form name="promotions" onFinish={save} disabled={!canChange || update.isPending}>
        <Table<Promotion>
          size="small"
          pagination={false}
          rowKey="promotionId"
          dataSource={list}
          locale={{ emptyText: <Typography.Text type="secondary">No promotions</Typography.Text> }}
          onRow={() => ({ 'data-testid': 'promotion-row' }) as HTMLAttributes<HTMLElement>}
          style={{ marginBottom: 16 }}
          scroll={{ x: 'max-content' }}
          columns={[
            {
              title: 'Promotion',
              render: (_, p) => (
                <Flex vertical>
                  <Typography.Text strong>{p.name}</Typography.Text>
                  <Typography.Text type="secondary">{promotionTermsWords(p.terms)}</Typography.Text>
                </Flex>
              ),
            },
            { title: 'Channel', render: (_, p) => promotionChannelLabels[p.channel] },
            { title: 'Where', render: (_, p) => (p.facilityIds.length === 0 ? 'All facilities' : p.facilityIds.map(facilityName).join(', ')) },
            { title: 'Sizes', render: (_, p) => (p.unitSizes.length === 0 ? 'All sizes' : p.unitSizes.join(', ')) },
            { title: 'Move-In Days', render: (_, p) => daysInWords(p) },
            {
              title: 'Active',
              render: (_, p, index) => (
                <Switch
                  aria-label={`${p.name} active`}
                  checked={p.active}
                  onChange={(active) => setList((current) => current.map((q, i) => (i === index ? { ...q, active } : q)))}
                />
              ),
            },
            ...(canChange
              ? [
                  {
                    key: 'actions',
                    render: (_: unknown, p: Promotion, index: number) => (
                      <Flex gap={4}>
                        <Button type="text" icon={<EditOutlined />} aria-label={`Edit ${p.name}`} onClick={() => setEditing({ index })} />
                        <Button
                          type="text"
                          icon={<DeleteOutlined />}
                          aria-label={`Remove ${p.name}`}
                          onClick={() => setList((current) => current.filter((_, i) => i !== index))}
                        />
                      </Flex>
                    ),
                  },
                ]
              : []),
          ]}
        />
        {canChange && (
          <Flex align="center" gap={12} style={{ marginBottom: 16 }}>
            <Button type="dashed" icon={<PlusOutlined />} disabled={list.length >= MAX_PROMOTIONS} onClick={() => setEditing({ index: null })}>
              Add Promotion
            </Button>
            {list.length >= MAX_PROMOTIONS && <Typography.Text type="secondary">At most {MAX_PROMOTIONS} promotions</Typography.Text>}
          </Flex>
        )}
        {inFacility && <Alert type="info" showIcon style={{ marginBottom: 16 }} title="This facility uses the business's promotions." />}
        {changed && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title="Changes are not saved yet: Save Promotions to keep them." />}
        <SettingsFormFooter canChange={canChange} saving={update.isPending} saveLabel="Save Promotions" />
      </Form>
      <FormDialog open={editing !== null} title={editing?.index == null ? 'Add Promotion' : 'Edit Promotion'} width={640} onClose={() => setEditing(null)}>
        {editing && (
          <PromotionForm
            promotion={editing.index === null ? undefined : list[editing.index]}
            facilityOptions={(facilities.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
            onDone={put}
            onCancel={() => setEditing(null)}
          />
        )}
      </FormDialog>
    </>
  );
}

type PromotionFormValues = {
  name: string;
  kind: PromotionKind;
  percent: string;
  amount: string;
  months: number | null;
  channel: PromotionChannel;
  facilityIds: string[];
  unitSizes: UnitSize[];
  startsOn: string;
  endsOn: string;
  active: boolean;
};

function formValuesOf(promotion: Promotion | undefined): PromotionFormValues {
  if (!promotion) {
    return {
      name: '',
      kind: 'percent_off',
      percent: '100',
      amount: '',
      months: 1,
      channel: 'both',
      facilityIds: [],
      unitSizes: [],
      startsOn: '',
      endsOn: '',
      active: true,
    };
  }
  const { terms } = promotion;
  return {
    name: promotion.name,
    kind: terms.kind,
    percent: terms.kind === 'percent_off' ? terms.percent : '',
    amount: terms.kind === 'percent_off' ? '' : terms.amount,
    months: terms.months,
    channel: promotion.channel,
    facilityIds: promotion.facilityIds,
    unitSizes: promotion.unitSizes,
    startsOn: promotion.startsOn ?? '',
    endsOn: promotion.endsOn ?? '',
    active: promotion.active,
  };
}

function promotionOf(values: PromotionFormValues, promotionId: string): unknown {
  const months = values.months ?? 0;
  const terms =
    values.kind === 'percent_off' ? { kind: values.kind, percent: values.percent.trim(), months } : { kind: values.kind, amount: values.amount.trim(), months };
  return {
    promotionId,
    name: values.name.trim(),
    terms,
    channel: values.channel,
    facilityIds: values.facilityIds ?? [],
    unitSizes: values.unitSizes ?? [],
    startsOn: values.startsOn || null,
    endsOn: values.endsOn || null,
    active: values.active,
  };
}

/** The form field (and its words) a contract issue's path names. */
function fieldOfIssue(path: readonly PropertyKey[]): { name: keyof PromotionFormValues; label: string } | null {
  const [first, second] = path;
  if (first === 'terms') {
    if (second === 'percent') return { name: 'percent', label: 'Percent' };
    if (second === 'amount') return { name: 'amount', label: 'Amount' };
    if (second === 'months') return { name: 'months', label: 'Months' };
    return null;
  }
  const labels: Partial<Record<keyof PromotionFormValues, string>> = {
    name: 'Name',
    channel: 'Channel',
    facilityIds: 'Facilities',
    unitSizes: 'Unit sizes',
    startsOn: 'Start',
    endsOn: 'End',
  };
  const name = String(first) as keyof PromotionFormValues;
  return labels[name] ? { name, label: labels[name] } : null;
}

type PromotionFormProps = {
  promotion?: Promotion;
  facilityOptions: { value: string; label: string }[];
  onDone: (promotion: Promotion) => void;
  onCancel: () => void;
};

function PromotionForm({ promotion, facilityOptions, onDone, onCancel }: PromotionFormProps) {
  const [form] = Form.useForm<PromotionFormValues>();
  const initial = formValuesOf(promotion);
  const kind = Form.useWatch('kind', form) ?? initial.kind;
  const chosenSizes = Form.useWatch('unitSizes', form) ?? initial.unitSizes;

  const finish = (values: PromotionFormValues) => {
    // What one field cannot see: an end before the start.
    const checked = Promotion.safeParse(promotionOf(values, promotion?.promotionId ?? crypto.randomUUID()));
    if (!checked.success) {
      form.setFields(
        checked.error.issues.flatMap((issue) => {
          const field = fieldOfIssue(issue.path);
          return field ? [{ name: field.name, errors: [`${field.label} ${issue.message}`] }] : [];
        }),
      );
      return;
    }
    onDone(checked.data);
  };

  return (
    <DialogForm<PromotionFormValues>
      form={form}
      name="promotion"
      initialValues={initial}
      onFinish={finish}
      saving={false}
      submitLabel={promotion ? 'Done' : 'Add Promotion'}
      onCancel={onCancel}
    >
      <Form.Item label="Name" name="name" required rules={[contractRule('Name', fields.name)]}>
        <Input autoComplete="off" autoFocus placeholder="First month free" />
      </Form.Item>
      <FieldGrid>
        <GridField label="Kind" name="kind" required>
          <Select options={kindOptions} />
        </GridField>
        {kind === 'percent_off' ? (
          <GridField label="Percent Off" name="percent" required rules={[contractRule('Percent', percentTerms.shape.percent)]} extra="100: free">
            <Input suffix="%" inputMode="decimal" placeholder="100" />
          </GridField>
        ) : (
          <GridField
            label={kind === 'amount_off' ? 'Amount Off Each Month' : 'Price Each Month'}
            name="amount"
            required
            rules={[contractRule('Amount', amountTerms.shape.amount)]}
          >
            <Input prefix="$" inputMode="decimal" placeholder="0.00" />
          </GridField>
        )}
        <GridField
          label="Months"
          name="months"
          required
          extra="Of rent, from the move-in"
          rules={[{ required: true, message: 'Months is required' }, contractRule('Months', percentTerms.shape.months)]}
        >
          <InputNumber min={1} max={24} precision={0} style={{ width: '100%' }} />
        </GridField>
        <GridField label="Channel" name="channel" required>
          <Select options={channelOptions} />
        </GridField>
        <GridField label="Facilities" name="facilityIds" extra="Empty: all facilities">
          <Select mode="multiple" options={facilityOptions} placeholder="All facilities" optionFilterProp="label" />
        </GridField>
        <GridField label="Unit Sizes" name="unitSizes" extra="Empty: all sizes">
          <Select mode="multiple" options={sizeOptions(chosenSizes)} placeholder="All sizes" optionFilterProp="label" />
        </GridField>
        <GridField label="Starts On" name="startsOn" extra="Move-ins from this day. Empty: now">
          <Input type="date" />
        </GridField>
        <GridField label="Ends On" name="endsOn" extra="Move-ins until this day. Empty: no end" rules={[contractRule('End', fields.endsOn)]}>
          <Input type="date" />
        </GridField>
        <GridField label="Active" name="active" valuePropName="checked" extra="Off: offered no more">
          <Switch />
        </GridField>
      </FieldGrid>
    </DialogForm>
  );
}
