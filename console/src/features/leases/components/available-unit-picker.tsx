import type { Unit } from '@storage/contracts/units';
import { SearchSelect } from '../../../components/search-select.tsx';
import { formatDollars } from '../../../lib/format.ts';
import { availableUnitsQueryOptions } from '../api/get-available-units.ts';

type AvailableUnitPickerProps = {
  value?: string;
  onChange?: (unitId: string) => void;
  id?: string;
  facilityId: string | null;
  onUnitChosen: (unit: Unit) => void;
};

export function AvailableUnitPicker({ facilityId, onUnitChosen, ...field }: AvailableUnitPickerProps) {
  return (
    <SearchSelect
      {...field}
      placeholder="Search by number, building, or size..."
      itemsQuery={(search) => availableUnitsQueryOptions({ search, facilityId })}
      toOption={(unit) => ({
        value: unit.id,
        label: `${unit.unitNumber} · ${unit.size} · Building ${unit.building} · ${formatDollars(unit.monthlyRate)}/month`,
      })}
      onItemChosen={onUnitChosen}
    />
  );
}
