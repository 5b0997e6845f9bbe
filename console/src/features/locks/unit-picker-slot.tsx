import { type ComponentType, createContext, type ReactNode, useContext } from 'react';

/** What the lock forms need of a unit picker; the screen plugs in the units feature's one. */
export type LockUnitPickerProps = {
  value?: string;
  onChange?: (unitId: string) => void;
  id?: string;
  facilityId: string | null;
  emptyOptionLabel: string;
  selectedUnit?: { id: string; unitNumber: string } | null;
};

/** The value of the picker's "No unit assigned" option. */
export const NO_UNIT = '';

const UnitPickerContext = createContext<ComponentType<LockUnitPickerProps> | null>(null);

export function UnitPickerProvider({ picker, children }: { picker: ComponentType<LockUnitPickerProps>; children: ReactNode }) {
  return <UnitPickerContext value={picker}>{children}</UnitPickerContext>;
}

export function useUnitPicker(): ComponentType<LockUnitPickerProps> {
  const picker = useContext(UnitPickerContext);
  if (!picker) throw new Error('useUnitPicker must be used inside UnitPickerProvider');
  return picker;
}
