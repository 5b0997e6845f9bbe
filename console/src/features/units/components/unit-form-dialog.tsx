import { type UnitSize, type UnitStatus, unitFormSizes } from '@storage/contracts/enums';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { CreateUnitRequest } from '@storage/contracts/units';
import { Input, Select } from 'antd';
import { FacilityField } from '../../../components/facility-field.tsx';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useCreateUnit } from '../api/create-unit.ts';
import { unitStatusOptions } from '../unit-status.ts';
import { featuresOfValues, featureValues, UnitFeatureFields, type UnitFeatureValues } from './unit-features-fields.tsx';

type UnitFormValues = {
  unitNumber: string;
  building: string;
  size: UnitSize;
  monthlyRate: string;
  status: UnitStatus;
  description: string;
  facilityId?: string;
  features: UnitFeatureValues;
};

const fieldSchemas = CreateUnitRequest.shape;

/** Spec §5: size 10x10 and status available; the monthly rate starts empty. */
const newUnit: UnitFormValues = {
  unitNumber: '',
  building: '',
  size: '10x10',
  monthlyRate: '',
  status: 'available',
  description: '',
  features: featureValues(NO_UNIT_FEATURES),
};

const sizeOptions = unitFormSizes.map(({ value, label }) => ({ value, label: `${value} (${label})` }));

type UnitFormDialogProps = { open: boolean; onClose: () => void; onCreated?: () => void };

export function UnitFormDialog({ open, onClose, onCreated }: UnitFormDialogProps) {
  return (
    <FormDialog open={open} title="Add Unit" width={600} onClose={onClose}>
      <UnitForm
        onCancel={onClose}
        onCreated={() => {
          onCreated?.();
          onClose();
        }}
      />
    </FormDialog>
  );
}

function UnitForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: () => void }) {
  const createUnit = useCreateUnit();
  const { selectedFacility } = useFacilityScope();
  const toast = useToast();

  const save = (values: UnitFormValues) =>
    createUnit.mutate(
      { ...values, facilityId: values.facilityId ?? null, features: featuresOfValues(values.features) },
      toast.outcome('Unit created successfully', 'Failed to create unit', onCreated),
    );

  return (
    <DialogForm<UnitFormValues>
      initialValues={{ ...newUnit, facilityId: selectedFacility?.id }}
      onFinish={save}
      saving={createUnit.isPending}
      submitLabel="Add Unit"
      onCancel={onCancel}
    >
      <FieldGrid>
        <GridField label="Unit Number" name="unitNumber" required rules={[contractRule('Unit number', fieldSchemas.unitNumber)]}>
          <Input autoComplete="off" autoFocus placeholder="A101" />
        </GridField>
        <GridField label="Building" name="building" required rules={[contractRule('Building', fieldSchemas.building)]}>
          <Input autoComplete="off" placeholder="A" />
        </GridField>
        <GridField label="Size" name="size">
          <Select options={sizeOptions} />
        </GridField>
        <GridField label="Monthly Rate" name="monthlyRate" required rules={[contractRule('Monthly rate', fieldSchemas.monthlyRate)]}>
          <Input prefix="$" inputMode="decimal" autoComplete="off" placeholder="120.00" />
        </GridField>
        <GridField label="Status" name="status">
          <Select options={unitStatusOptions} />
        </GridField>
        <FacilityField />
        <GridField wide label="Description" name="description" rules={[contractRule('Description', fieldSchemas.description)]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
        </GridField>
        <UnitFeatureFields name={['features']} />
      </FieldGrid>
    </DialogForm>
  );
}
