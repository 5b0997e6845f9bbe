import { DeleteOutlined } from '@ant-design/icons';
import type { Customer } from '@storage/contracts/customers';
import { Button, Popconfirm } from 'antd';
import { useToast } from '../../../lib/toast.tsx';
import { useArchiveCustomer } from '../api/archive-customer.ts';

export function ArchiveCustomerButton({ customer }: { customer: Customer }) {
  const archiveCustomer = useArchiveCustomer();
  const toast = useToast();

  const archive = () =>
    archiveCustomer.mutateAsync(customer.id).then(
      () => toast.success('Customer archived'),
      (error: Error) => toast.failure('Failed to archive customer', error),
    );

  return (
    <Popconfirm
      title="Archive this customer?"
      description="They leave the lists; their history is kept."
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
