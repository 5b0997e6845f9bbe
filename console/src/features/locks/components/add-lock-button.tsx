import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useCanChange } from '../../../lib/staff-permissions.ts';
import { LockFormDialog } from './lock-form-dialog.tsx';

export function AddLockButton() {
  const [open, setOpen] = useState(false);
  const canChange = useCanChange();
  if (!canChange) return null;
  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)}>
        Add Lock
      </Button>
      <LockFormDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
