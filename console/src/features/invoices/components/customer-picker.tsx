import type { Customer } from '@storage/contracts/customers';
import { Select, Typography } from 'antd';
import { useState } from 'react';
import { useSearchTerm } from '../../../hooks/use-search-term.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { useCustomerSearch } from '../api/search-customers.ts';

type CustomerPickerProps = {
  id?: string;
  value?: string;
  onChange?: (customerId: string) => void;
};

function optionOf(customer: Customer) {
  return {
    value: customer.id,
    label: `${customer.firstName} ${customer.lastName} (${customer.email})`,
    customer,
  };
}

/** Picks the invoice's customer; typing searches the customers on the server, in the selected facility. */
export function CustomerPicker({ id, value, onChange }: CustomerPickerProps) {
  const { setInput, search } = useSearchTerm();
  const { selectedFacility } = useFacilityScope();
  const customers = useCustomerSearch({ search, facilityId: selectedFacility?.id ?? null });
  // Kept so the choice still shows after the search moves on to other customers.
  const [chosen, setChosen] = useState<Customer | null>(null);

  const found = customers.data ?? [];
  const options = [...(chosen && !found.some((c) => c.id === chosen.id) ? [chosen] : []), ...found].map(optionOf);

  return (
    <Select
      id={id}
      value={value}
      placeholder="Search customers by name or email"
      aria-label="Customer"
      showSearch={{ filterOption: false, onSearch: setInput }}
      options={options}
      loading={customers.isFetching}
      notFoundContent={customers.isPending ? 'Loading...' : 'No customers found'}
      optionRender={(option) => (
        <div>
          <div>
            {option.data.customer.firstName} {option.data.customer.lastName}
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {option.data.customer.email}
          </Typography.Text>
        </div>
      )}
      onChange={(customerId: string, option) => {
        if (option && !Array.isArray(option)) setChosen(option.customer);
        onChange?.(customerId);
      }}
    />
  );
}
