import { DeleteOutlined } from '@ant-design/icons';
import type { Customer } from '@storage/contracts/customers';
import { Button, Popconfirm } from 'antd';
import { useToast } from '../../../lib/toast.tsx';
import { useArchiveCustomer } from '../api/archive-customer.ts';

/** `onArchived`: what follows (the customer page goes back to the list, since the customer has left it). */
export function ArchiveCustomerButton({ customer, onArchived }: { customer: Customer; onArchived?: () => void }) {
  const archiveCustomer = useArchiveCustomer();
  const toast = useToast();

  const archive = () =>
    archiveCustomer.mutateAsync(customer.id).then(
      () => {
        toast.success('Customer archived');
        onArchived?.();
      },
      (error: Error) => toast.failure('Failed to archive customer', error),
    );

  return (
    <Popconfirm
      title="Archive this customer?"
      description="They leave the lists and can be restored; their history is kept."
      okText="Archive"
      okButtonProps={{ danger: true }}
      onConfirm={archive}
    >
      <Button type="text" danger icon={<DeleteOutlined />} loading={archiveCustomer.isPending}>
        Delete
      </Button>
    </Popconfirm>
  );
}
