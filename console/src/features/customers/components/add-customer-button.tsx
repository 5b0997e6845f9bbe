import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useCanChange } from '../../../lib/staff-permissions.ts';
import { LazyCustomerFormDialog } from './lazy-customer-form-dialog.tsx';

export function AddCustomerButton() {
  const [open, setOpen] = useState(false);
  const canChange = useCanChange();
  if (!canChange) return null;
  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)}>
        Add Customer
      </Button>
      <LazyCustomerFormDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
