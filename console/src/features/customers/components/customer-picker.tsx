import { SearchSelect } from '../../../components/search-select.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { customerSearchQueryOptions } from '../api/search-customers.ts';

export type CustomerPickerProps = { value?: string; onChange?: (customerId: string) => void; id?: string };

/** Picks a customer of the selected facility by searching on the server; other screens' forms take it as a slot. */
export function CustomerPicker(field: CustomerPickerProps) {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  return (
    <SearchSelect
      {...field}
      placeholder="Search by name, email, or phone..."
      itemsQuery={(search) => customerSearchQueryOptions({ search, facilityId })}
      toOption={(customer) => ({ value: customer.id, label: `${customer.firstName} ${customer.lastName} · ${customer.email}` })}
    />
  );
}
