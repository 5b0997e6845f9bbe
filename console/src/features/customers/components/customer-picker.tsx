import type { Customer } from '@storage/contracts/customers';
import { SearchSelect, type SearchSelectOption } from '../../../components/search-select.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { customerSearchQueryOptions } from '../api/search-customers.ts';

/** `fixedOptions`: customers named whatever the search, e.g. one just added, which no search has found yet. */
export type CustomerPickerProps = { value?: string; onChange?: (customerId: string) => void; id?: string; fixedOptions?: SearchSelectOption[] };

/** A customer as the picker names them. */
export const customerOption = (customer: Pick<Customer, 'id' | 'firstName' | 'lastName' | 'email'>): SearchSelectOption => ({
  value: customer.id,
  label: `${customer.firstName} ${customer.lastName} · ${customer.email}`,
});

/** Picks a customer of the selected facility by searching on the server; other screens' forms take it as a slot. */
export function CustomerPicker(field: CustomerPickerProps) {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  return (
    <SearchSelect
      {...field}
      placeholder="Search by name, email, or phone..."
      itemsQuery={(search) => customerSearchQueryOptions({ search, facilityId })}
      toOption={customerOption}
    />
  );
}
