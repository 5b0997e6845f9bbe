import { LoginOutlined } from '@ant-design/icons';
import { StartLeaseRequest } from '@storage/contracts/leases';
import { Button, Form, Input } from 'antd';
import { type ComponentType, useState } from 'react';
import { FieldGrid, GridField } from '../../../components/field-grid.tsx';
import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { contractRule } from '../../../lib/form-rules.ts';
import { useCanChange } from '../../../lib/staff-permissions.ts';
import { useToast } from '../../../lib/toast.tsx';
import type { MoveInQuoteTerms } from '../api/get-move-in-quote.ts';
import { useStartLease } from '../api/start-lease.ts';
import { todayLocalIsoDate } from '../local-date.ts';
import { AvailableUnitPicker } from './available-unit-picker.tsx';
import { MoveInQuotePanel } from './move-in-quote.tsx';

type MoveInValues = {
  customerId?: string;
  unitId?: string;
  monthlyRate: string;
  depositAmount: string | null;
  startDate: string;
};

const fieldSchemas = StartLeaseRequest.shape;

/** An empty optional amount is no amount at all. */
const emptyAsNull = (value: string) => (value.trim() === '' ? null : value);

/** The customer field of the form; the screen plugs in the customers feature's picker. */
export type MoveInCustomerPicker = ComponentType<{ value?: string; onChange?: (customerId: string) => void; id?: string }>;

type MoveInButtonProps = { customerPicker: MoveInCustomerPicker; onMovedIn: () => void };

export function MoveInButton({ customerPicker, onMovedIn }: MoveInButtonProps) {
  const [open, setOpen] = useState(false);
  const canChange = useCanChange();
  if (!canChange) return null;
  return (
    <>
      <Button type="primary" icon={<LoginOutlined />} onClick={() => setOpen(true)}>
        Move In
      </Button>
      <FormDialog open={open} title="Move In" width={600} onClose={() => setOpen(false)}>
        <MoveInForm
          customerPicker={customerPicker}
          onDone={() => setOpen(false)}
          onMovedIn={() => {
            onMovedIn();
            setOpen(false);
          }}
        />
      </FormDialog>
    </>
  );
}

type MoveInFormProps = { customerPicker: MoveInCustomerPicker; onDone: () => void; onMovedIn: () => void };

function MoveInForm({ customerPicker: CustomerPicker, onDone, onMovedIn }: MoveInFormProps) {
  const [form] = Form.useForm<MoveInValues>();
  const startLease = useStartLease();
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const toast = useToast();

  const unitId = Form.useWatch('unitId', form);
  const startDate = Form.useWatch('startDate', form);
  const monthlyRate = Form.useWatch('monthlyRate', form) ?? '';
  const depositAmount = Form.useWatch('depositAmount', form) ?? null;
  // Quoted once a unit and a day are chosen, at the rate and deposit as typed (checked as the Move In checks them).
  const quoteTerms: MoveInQuoteTerms | null =
    unitId && startDate && fieldSchemas.startDate.safeParse(startDate).success
      ? { unitId, startDate, ...(monthlyRate.trim() && { monthlyRate: monthlyRate.trim() }), ...(depositAmount && { depositAmount: depositAmount.trim() }) }
      : null;
  const unquotable =
    (quoteTerms?.monthlyRate !== undefined && !fieldSchemas.monthlyRate.safeParse(quoteTerms.monthlyRate).success) ||
    (quoteTerms?.depositAmount !== undefined && !fieldSchemas.depositAmount.safeParse(quoteTerms.depositAmount).success);

  const save = ({ customerId, unitId, monthlyRate, depositAmount, startDate }: MoveInValues) =>
    startLease.mutate(
      { customerId: customerId!, unitId: unitId!, monthlyRate, depositAmount, startDate },
      toast.outcome('Lease created successfully', 'Failed to create lease', onMovedIn),
    );

  return (
    <DialogForm<MoveInValues>
      form={form}
      initialValues={{ monthlyRate: '', depositAmount: null, startDate: todayLocalIsoDate() }}
      onFinish={save}
      saving={startLease.isPending}
      submitLabel="Move In"
      onCancel={onDone}
    >
      <Form.Item label="Customer" name="customerId" rules={[{ required: true, message: 'Choose the customer who moves in' }]}>
        <CustomerPicker />
      </Form.Item>
      <Form.Item label="Unit" name="unitId" rules={[{ required: true, message: 'Choose an available unit' }]}>
        <AvailableUnitPicker
          facilityId={facilityId}
          onUnitChosen={(unit) => {
            form.setFieldValue('monthlyRate', unit.monthlyRate);
            void form.validateFields(['monthlyRate']);
          }}
        />
      </Form.Item>
      <FieldGrid>
        <GridField label="Monthly Rate" name="monthlyRate" required rules={[contractRule('Monthly rate', fieldSchemas.monthlyRate)]}>
          <Input prefix="$" inputMode="decimal" placeholder="120.00" autoComplete="off" />
        </GridField>
        <GridField label="Deposit" name="depositAmount" normalize={emptyAsNull} rules={[contractRule('Deposit', fieldSchemas.depositAmount)]}>
          <Input prefix="$" inputMode="decimal" placeholder="0.00" autoComplete="off" />
        </GridField>
        <GridField label="Start Date" name="startDate" required rules={[contractRule('Start date', fieldSchemas.startDate)]}>
          <Input type="date" />
        </GridField>
      </FieldGrid>
      <MoveInQuotePanel terms={quoteTerms} invalid={unquotable} />
    </DialogForm>
  );
}
