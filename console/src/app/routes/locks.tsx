import { PageHeader } from '../../components/page-header.tsx';
import { AddLockButton } from '../../features/locks/components/add-lock-button.tsx';
import { LocksList } from '../../features/locks/components/locks-list.tsx';
import { UnitPickerProvider } from '../../features/locks/unit-picker-slot.tsx';
import { UnitPicker } from '../../features/units/components/unit-picker.tsx';
import { useFacilityScope } from '../../lib/facility-scope.tsx';

export default function LocksPage() {
  const { selectedFacility } = useFacilityScope();
  const subtitle = selectedFacility?.name ? `Manage your smart lock fleet at ${selectedFacility.name}` : 'Manage your smart lock fleet';

  return (
    <UnitPickerProvider picker={UnitPicker}>
      <PageHeader title="Smart Locks" subtitle={subtitle} actions={<AddLockButton />} />
      <LocksList />
    </UnitPickerProvider>
  );
}
