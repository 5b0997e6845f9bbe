import { AccessHours } from '@storage/contracts/access-hours';
import { commonTimeZones } from '@storage/contracts/billing';
import { CreateFacilityRequest, type Facility } from '@storage/contracts/facilities';
import { Form, type FormRule, Input, Select, Switch } from 'antd';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { changedFields } from '../../../lib/changed-fields.ts';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useCreateFacility } from '../api/create-facility.ts';
import { useUpdateFacility } from '../api/update-facility.ts';

type FacilityDetails = { name: string; address: string; phone: string; managerName: string; timeZone: string };
/** The gate's hours as the form holds them: 24-hour access, or the two times (HH:MM) it opens and closes. */
type FacilityFormValues = FacilityDetails & { allHours: boolean; opensAt: string; closesAt: string };

const fieldSchemas = CreateFacilityRequest.shape;
const hourFields = AccessHours.shape;
/** The hours the form offers when 24-hour access is turned off. */
const SUGGESTED_HOURS: AccessHours = { opensAt: '06:00', closesAt: '22:00' };

/** The gate closes after it opens, as the contract refuses otherwise. */
const closesAfterOpening: FormRule = ({ getFieldValue }) => ({
  validator: async (_rule, closesAt: unknown) => {
    const hours = { opensAt: getFieldValue('opensAt'), closesAt };
    if (!hourFields.opensAt.safeParse(hours.opensAt).success || !hourFields.closesAt.safeParse(closesAt).success) return;
    if (!AccessHours.safeParse(hours).success) throw new Error('Closes at must be after opens at');
  },
});

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
  const hours = facility.accessHours ?? SUGGESTED_HOURS;
  return {
    name: facility.name,
    address: facility.address,
    phone: facility.phone ?? '',
    managerName: facility.managerName ?? '',
    timeZone: facility.timeZone,
    allHours: facility.accessHours === null,
    opensAt: hours.opensAt,
    closesAt: hours.closesAt,
  };
}

function requestOf({ allHours, opensAt, closesAt, ...details }: FacilityFormValues): FacilityDetails & { accessHours: AccessHours | null } {
  return { ...details, accessHours: allHours ? null : { opensAt, closesAt } };
}

const sameHours = (a: AccessHours | null, b: AccessHours | null) => a?.opensAt === b?.opensAt && a?.closesAt === b?.closesAt;

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
    const { accessHours, ...details } = requestOf(values);
    if (facility) {
      const { accessHours: _loaded, ...loaded } = requestOf(formValuesOf(facility));
      const changes = { ...changedFields(loaded, details), ...(!sameHours(facility.accessHours, accessHours) && { accessHours }) };
      if (Object.keys(changes).length === 0) {
        onDone();
        return;
      }
      updateFacility.mutate({ facilityId: facility.id, changes }, toast.outcome('Facility updated successfully', 'Failed to update facility', onDone));
      return;
    }
    createFacility.mutate({ ...details, accessHours }, toast.outcome('Facility created successfully', 'Failed to create facility', onDone));
  };

  return (
    <DialogForm<FacilityFormValues>
      name="facility"
      initialValues={
        facility
          ? formValuesOf(facility)
          : { name: '', address: '', phone: '', managerName: '', timeZone: defaultTimeZone(), allHours: true, ...SUGGESTED_HOURS }
      }
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
      <AccessHoursFields />
    </DialogForm>
  );
}

/** Access Hours: 24-hour access, or the times the gate opens and closes every day. */
function AccessHoursFields() {
  const form = Form.useFormInstance<FacilityFormValues>();
  const allHours = Form.useWatch('allHours', form);
  return (
    <FieldGrid>
      <GridField wide label="24-hour access" name="allHours" valuePropName="checked" extra="Renters can reach their units at any hour.">
        <Switch />
      </GridField>
      {allHours === false && (
        <>
          <GridField label="Opens At" name="opensAt" required rules={[contractRule('Opens at', hourFields.opensAt)]}>
            <Input type="time" />
          </GridField>
          <GridField
            label="Closes At"
            name="closesAt"
            required
            dependencies={['opensAt']}
            rules={[contractRule('Closes at', hourFields.closesAt), closesAfterOpening]}
          >
            <Input type="time" />
          </GridField>
        </>
      )}
    </FieldGrid>
  );
}
