import { type UnitFeatures, UnitFeatures as UnitFeaturesSchema, UnitLockType, unitLockTypeLabels } from '@storage/contracts/unit-features';
import { Checkbox, InputNumber, Select } from 'antd';
import { GridField } from '../../../components/field-grid.tsx';
import { contractRule } from '../../../lib/form-rules.ts';

const lockTypeOptions = UnitLockType.options.map((value) => ({ value, label: unitLockTypeLabels[value] }));

/** The form's values for a unit's features: an empty floor or lock type is left unsaid. */
export type UnitFeatureValues = { climateControlled: boolean; driveUp: boolean; floor: number | null; lockType: UnitFeatures['lockType'] | undefined };

export const featureValues = (features: UnitFeatures): UnitFeatureValues => ({ ...features, lockType: features.lockType ?? undefined });

export const featuresOfValues = (values: UnitFeatureValues): UnitFeatures => ({
  climateControlled: values.climateControlled,
  driveUp: values.driveUp,
  floor: values.floor ?? null,
  lockType: values.lockType ?? null,
});

/** What a unit offers a renter, inside a FieldGrid; `name` is where the form keeps them. */
export function UnitFeatureFields({ name = [] }: { name?: string[] }) {
  return (
    <>
      <GridField label="Floor" name={[...name, 'floor']} extra="1 is the ground floor" rules={[contractRule('Floor', UnitFeaturesSchema.shape.floor)]}>
        <InputNumber min={1} max={99} precision={0} style={{ width: '100%' }} placeholder="Not said" />
      </GridField>
      <GridField label="Lock Type" name={[...name, 'lockType']}>
        <Select options={lockTypeOptions} allowClear placeholder="Not said" />
      </GridField>
      <GridField name={[...name, 'climateControlled']} valuePropName="checked">
        <Checkbox>Climate Controlled</Checkbox>
      </GridField>
      <GridField name={[...name, 'driveUp']} valuePropName="checked">
        <Checkbox>Drive-Up Access</Checkbox>
      </GridField>
    </>
  );
}
