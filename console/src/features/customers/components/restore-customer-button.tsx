import { UndoOutlined } from '@ant-design/icons';
import type { Customer } from '@storage/contracts/customers';
import { Button } from 'antd';
import { useToast } from '../../../lib/toast.tsx';
import { useRestoreCustomer } from '../api/restore-customer.ts';

/** Brings an archived customer back into the lists (refused while a new account holds their email). */
export function RestoreCustomerButton({ customer }: { customer: Customer }) {
  const restoreCustomer = useRestoreCustomer();
  const toast = useToast();
  return (
    <Button
      type="text"
      icon={<UndoOutlined />}
      loading={restoreCustomer.isPending}
      onClick={() => restoreCustomer.mutate(customer.id, toast.outcome('Customer restored', 'Failed to restore customer'))}
    >
      Restore
    </Button>
  );
}
