import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useCanChange } from '../../../lib/staff-permissions.ts';
import { UnitFormDialog } from './unit-form-dialog.tsx';

/** `onCreated` lets the screen refresh what else a new unit changes (the facility's unit count). */
export function AddUnitButton({ onCreated }: { onCreated?: () => void }) {
  const [open, setOpen] = useState(false);
  const canChange = useCanChange();
  if (!canChange) return null;
  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)}>
        Add Unit
      </Button>
      <UnitFormDialog open={open} onClose={() => setOpen(false)} onCreated={onCreated} />
    </>
  );
}
