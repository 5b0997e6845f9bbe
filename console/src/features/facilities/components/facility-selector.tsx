import { Select } from 'antd';
import { useFacilities } from '../../../lib/facilities.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';

const ALL_FACILITIES = 'all';

export function FacilitySelector() {
  const { data: facilities = [], isPending, isError } = useFacilities();
  const { selectedFacility, selectFacility } = useFacilityScope();

  const options = [
    { value: ALL_FACILITIES, label: 'All Facilities' },
    ...facilities.map((facility) => ({
      value: facility.id,
      label: `${facility.name} (${facility.occupiedUnits}/${facility.totalUnits} occupied)`,
    })),
  ];

  const choose = (value: string) => {
    const facility = facilities.find((candidate) => candidate.id === value);
    selectFacility(facility ? { id: facility.id, name: facility.name } : null);
  };

  return (
    <Select
      aria-label="Facility"
      value={selectedFacility?.id ?? ALL_FACILITIES}
      options={options}
      onChange={choose}
      loading={isPending}
      status={isError ? 'error' : undefined}
      popupMatchSelectWidth={false}
      style={{ width: '100%' }}
    />
  );
}
