import { commonTimeZones } from '@storage/contracts/billing';
import { CreateFacilityRequest, type Facility } from '@storage/contracts/facilities';
import { Form, Input, Select } from 'antd';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { changedFields } from '../../../lib/changed-fields.ts';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useCreateFacility } from '../api/create-facility.ts';
import { useUpdateFacility } from '../api/update-facility.ts';

type FacilityFormValues = { name: string; address: string; phone: string; managerName: string; timeZone: string };

const fieldSchemas = CreateFacilityRequest.shape;

/** A new facility's zone: the browser's, when the form offers it; else UTC. */
export function defaultTimeZone(): string {
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (commonTimeZones as readonly string[]).includes(browserZone) ? browserZone : 'UTC';
}

/** The zones the form offers, and the facility's own when it is another. */
function timeZoneOptions(current: string | undefined) {
  const zones: string[] = [...commonTimeZones];
  if (current && !zones.includes(current)) zones.push(current);
  return zones.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));
}

function formValuesOf(facility: Facility): FacilityFormValues {
  return {
    name: facility.name,
    address: facility.address,
    phone: facility.phone ?? '',
    managerName: facility.managerName ?? '',
    timeZone: facility.timeZone,
  };
}

type FacilityFormDialogProps = {
  open: boolean;
  /** The facility to edit; without one the dialog adds a facility. */
  facility?: Facility;
  onClose: () => void;
};

/** Add Facility and Edit Facility share this dialog. */
export function FacilityFormDialog({ open, facility, onClose }: FacilityFormDialogProps) {
  return (
    <FormDialog open={open} title={facility ? 'Edit Facility' : 'Add Facility'} width={560} onClose={onClose}>
      <FacilityForm facility={facility} onDone={onClose} />
    </FormDialog>
  );
}

function FacilityForm({ facility, onDone }: { facility?: Facility; onDone: () => void }) {
  const createFacility = useCreateFacility();
  const updateFacility = useUpdateFacility();
  const toast = useToast();
  const saving = createFacility.isPending || updateFacility.isPending;

  const save = (values: FacilityFormValues) => {
    if (facility) {
      const changes = changedFields(formValuesOf(facility), values);
      if (Object.keys(changes).length === 0) {
        onDone();
        return;
      }
      updateFacility.mutate({ facilityId: facility.id, changes }, toast.outcome('Facility updated successfully', 'Failed to update facility', onDone));
      return;
    }
    createFacility.mutate(values, toast.outcome('Facility created successfully', 'Failed to create facility', onDone));
  };

  return (
    <DialogForm<FacilityFormValues>
      name="facility"
      initialValues={facility ? formValuesOf(facility) : { name: '', address: '', phone: '', managerName: '', timeZone: defaultTimeZone() }}
      onFinish={save}
      saving={saving}
      submitLabel={facility ? 'Save Changes' : 'Add Facility'}
      onCancel={onDone}
    >
      <Form.Item label="Name" name="name" required rules={[contractRule('Name', fieldSchemas.name)]}>
        <Input autoComplete="off" autoFocus />
      </Form.Item>
      <Form.Item label="Address" name="address" required rules={[contractRule('Address', fieldSchemas.address)]}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
      <FieldGrid>
        <GridField label="Phone" name="phone" rules={[contractRule('Phone', fieldSchemas.phone)]}>
          <Input type="tel" autoComplete="off" />
        </GridField>
        <GridField label="Manager Name" name="managerName" rules={[contractRule('Manager name', fieldSchemas.managerName)]}>
          <Input autoComplete="off" />
        </GridField>
        <GridField label="Time Zone" name="timeZone" required rules={[{ required: true, message: 'Time zone is required' }]}>
          <Select options={timeZoneOptions(facility?.timeZone)} showSearch optionFilterProp="label" />
        </GridField>
      </FieldGrid>
    </DialogForm>
  );
}
