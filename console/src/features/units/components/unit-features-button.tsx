import { SettingOutlined } from '@ant-design/icons';
import type { Unit } from '@storage/contracts/units';
import { Button } from 'antd';
import { useState } from 'react';
import { FieldGrid } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { useToast } from '../../../lib/toast.tsx';
import { useSetUnitFeatures } from '../api/set-unit-features.ts';
import { featuresOfValues, featureValues, UnitFeatureFields, type UnitFeatureValues } from './unit-features-fields.tsx';

/** A unit card's action: what the unit offers (the public unit list shows it as the unit's badges). */
export function UnitFeaturesButton({ unit }: { unit: Unit }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="text" icon={<SettingOutlined />} onClick={() => setOpen(true)} aria-label={`Features of unit ${unit.unitNumber}`}>
        Features
      </Button>
      <FormDialog open={open} title={`Unit ${unit.unitNumber} Features`} width={520} onClose={() => setOpen(false)}>
        <UnitFeaturesForm unit={unit} onDone={() => setOpen(false)} />
      </FormDialog>
    </>
  );
}

function UnitFeaturesForm({ unit, onDone }: { unit: Unit; onDone: () => void }) {
  const setFeatures = useSetUnitFeatures();
  const toast = useToast();
  const save = (values: UnitFeatureValues) =>
    setFeatures.mutate(
      { unitId: unit.id, features: featuresOfValues(values) },
      toast.outcome(`Unit ${unit.unitNumber} features saved`, 'Failed to save the unit features', onDone),
    );
  return (
    <DialogForm<UnitFeatureValues>
      initialValues={featureValues(unit.features)}
      onFinish={save}
      saving={setFeatures.isPending}
      submitLabel="Save Features"
      onCancel={onDone}
    >
      <FieldGrid>
        <UnitFeatureFields />
      </FieldGrid>
    </DialogForm>
  );
}
