import { useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '../../components/page-header.tsx';
import { AddUnitButton } from '../../features/units/components/add-unit-button.tsx';
import { UnitsList } from '../../features/units/components/units-list.tsx';
import { facilitiesQueryOptions } from '../../lib/facilities.ts';

export default function UnitsPage() {
  const queryClient = useQueryClient();
  // A new unit counts towards its facility's total in the facility selector.
  const refreshFacilities = () => queryClient.invalidateQueries({ queryKey: facilitiesQueryOptions().queryKey });

  return (
    <>
      <PageHeader title="Units" actions={<AddUnitButton onCreated={refreshFacilities} />} />
      <UnitsList />
    </>
  );
}
