import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SearchSelect } from '../../../components/search-select.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { entityLabelQueryOptions, entitySearchQueryOptions, type PickedEntity } from '../api/get-entity.ts';

export type EntityPickerProps = {
  value: PickedEntity | null;
  onChange: (entity: PickedEntity | null) => void;
  placeholder?: string;
  'aria-label'?: string;
  width?: number;
};

const kinds = ['customer', 'unit', 'invoice'] as const;
const kindWords = { customer: 'Customer', unit: 'Unit', invoice: 'Invoice' } as const;
const keyOf = ({ kind, id }: PickedEntity) => `${kind}:${id}`;

function entityOf(key: string): PickedEntity | null {
  const [kind, id] = key.split(':');
  return kinds.find((k) => k === kind) && id ? { kind: kind as PickedEntity['kind'], id } : null;
}

/**
 * Picks a customer, a unit or an invoice of the facility in scope, searching as the global search
 * does while the user types; the one picked is named again when the screen opens on it.
 */
export function EntityPicker({ value, onChange, placeholder = 'Customer, unit or invoice', 'aria-label': ariaLabel, width = 320 }: EntityPickerProps) {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const queryClient = useQueryClient();
  const named = useQuery({ ...entityLabelQueryOptions(value ?? { kind: 'customer', id: '' }), enabled: value !== null });
  const current = value && {
    value: keyOf(value),
    label: named.data ?? (named.isError ? `${kindWords[value.kind]} not found` : `${kindWords[value.kind]}…`),
  };
  return (
    <SearchSelect
      value={current?.value}
      onChange={(key) => onChange(entityOf(key))}
      placeholder={placeholder}
      aria-label={ariaLabel}
      allowClear
      typeToSearch="Type a name, email, phone, unit or invoice number"
      itemsQuery={(search) => entitySearchQueryOptions(search, facilityId)}
      toOption={(entity) => ({ value: keyOf(entity), label: entity.label })}
      // Its name is known: not asked for again once the screen shows it picked.
      onItemChosen={(entity) => queryClient.setQueryData(entityLabelQueryOptions(entity).queryKey, entity.label)}
      fixedOptions={current ? [current] : []}
      style={{ width }}
    />
  );
}
