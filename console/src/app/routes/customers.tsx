import { PageHeader } from '../../components/page-header.tsx';
import { AddCustomerButton } from '../../features/customers/components/add-customer-button.tsx';
import { CustomersList } from '../../features/customers/components/customers-list.tsx';
import { useFacilityScope } from '../../lib/facility-scope.tsx';

export default function CustomersPage() {
  const { selectedFacility } = useFacilityScope();
  const subtitle = selectedFacility?.name ? `Manage your storage facility customers at ${selectedFacility.name}` : 'Manage your storage facility customers';

  return (
    <>
      <PageHeader title="Customers" subtitle={subtitle} actions={<AddCustomerButton />} />
      <CustomersList />
    </>
  );
}
