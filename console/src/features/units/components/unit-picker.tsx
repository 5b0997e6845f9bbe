import { SearchSelect } from '../../../components/search-select.tsx';
import { unitChoicesQueryOptions } from '../api/get-units.ts';

const NO_UNIT = '';

export type UnitPickerProps = {
  /** The chosen unit's id; '' is the empty option. Form.Item passes value, onChange and id. */
  value?: string;
  onChange?: (unitId: string) => void;
  id?: string;
  /** Units of this facility only; null searches every facility. */
  facilityId: string | null;
  emptyOptionLabel: string;
  /** The unit already chosen when the form opens, named even when a search does not list it. */
  selectedUnit?: { id: string; unitNumber: string } | null;
};

/** Picks a unit, or none, by searching the units on the server; other features' forms take it as a slot. */
export function UnitPicker({ value = NO_UNIT, facilityId, emptyOptionLabel, selectedUnit, ...field }: UnitPickerProps) {
  const fixedOptions = [{ value: NO_UNIT, label: emptyOptionLabel }, ...(selectedUnit ? [{ value: selectedUnit.id, label: selectedUnit.unitNumber }] : [])];
  return (
    <SearchSelect
      {...field}
      value={value}
      placeholder="Search by number, building, or size..."
      itemsQuery={(search) => unitChoicesQueryOptions({ search, facilityId })}
      toOption={(unit) => ({ value: unit.id, label: `${unit.unitNumber} · Building ${unit.building} · ${unit.size}` })}
      fixedOptions={fixedOptions}
    />
  );
}
