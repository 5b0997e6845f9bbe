import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { CustomerFormDialog } from './customer-form-dialog.tsx';

export function AddCustomerButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)}>
        Add Customer
      </Button>
      <CustomerFormDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
