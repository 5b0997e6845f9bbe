import { EditOutlined } from '@ant-design/icons';
import type { Customer } from '@storage/contracts/customers';
import { Button } from 'antd';
import { useState } from 'react';
import { CustomerFormDialog } from './customer-form-dialog.tsx';

export function EditCustomerButton({ customer }: { customer: Customer }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="text" icon={<EditOutlined />} onClick={() => setOpen(true)}>
        Edit
      </Button>
      <CustomerFormDialog open={open} customer={customer} onClose={() => setOpen(false)} />
    </>
  );
}
