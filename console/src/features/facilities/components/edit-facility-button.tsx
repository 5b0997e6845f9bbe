import { EditOutlined } from '@ant-design/icons';
import type { Facility } from '@storage/contracts/facilities';
import { Button } from 'antd';
import { useState } from 'react';
import { FacilityFormDialog } from './facility-form-dialog.tsx';

export function EditFacilityButton({ facility }: { facility: Facility }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<EditOutlined />} onClick={() => setOpen(true)} aria-label={`Edit ${facility.name}`}>
        Edit
      </Button>
      <FacilityFormDialog open={open} facility={facility} onClose={() => setOpen(false)} />
    </>
  );
}
