import { Form, Select } from 'antd';
import { useEffect } from 'react';
import { useFacilities } from '../lib/facilities.ts';
import { GridField } from './field-grid.tsx';

/**
 * Asks which facility a new unit or customer belongs to. The form starts it on the facility in
 * scope; with All Facilities selected the staff member chooses one (or it is the only one), so
 * nothing is created "Unassigned". It is required once the business has a facility.
 */
export function FacilityField({ name = 'facilityId' }: { name?: string }) {
  const { data: facilities = [], isPending } = useFacilities();
  const form = Form.useFormInstance();
  const only = facilities.length === 1 ? facilities[0]!.id : undefined;
  useEffect(() => {
    if (only && !form.getFieldValue(name)) form.setFieldValue(name, only);
  }, [only, form, name]);
  const required = facilities.length > 0;
  return (
    <GridField label="Facility" name={name} required={required} rules={required ? [{ required: true, message: 'Choose the facility' }] : []}>
      <Select
        loading={isPending}
        placeholder="Choose a facility"
        options={facilities.map((facility) => ({ value: facility.id, label: facility.name }))}
        showSearch={{ optionFilterProp: 'label' }}
      />
    </GridField>
  );
}
