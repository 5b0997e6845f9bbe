import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';

/** The facility every staff list and the dashboard are scoped to; null is All Facilities. */
export type SelectedFacility = { id: string; name: string } | null;

type FacilityScope = {
  selectedFacility: SelectedFacility;
  selectFacility: (facility: SelectedFacility) => void;
};

const FacilityScopeContext = createContext<FacilityScope | null>(null);

/** Held in memory only (spec §4): a reload returns to All Facilities. */
export function FacilityScopeProvider({ children }: { children: ReactNode }) {
  const [selectedFacility, selectFacility] = useState<SelectedFacility>(null);
  const scope = useMemo(() => ({ selectedFacility, selectFacility }), [selectedFacility]);
  return <FacilityScopeContext value={scope}>{children}</FacilityScopeContext>;
}

export function useFacilityScope(): FacilityScope {
  const scope = useContext(FacilityScopeContext);
  if (!scope) throw new Error('useFacilityScope must be used inside FacilityScopeProvider');
  return scope;
}
