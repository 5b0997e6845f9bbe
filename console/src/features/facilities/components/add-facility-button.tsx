import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { FacilityFormDialog } from './facility-form-dialog.tsx';

export function AddFacilityButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)}>
        Add Facility
      </Button>
      <FacilityFormDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
