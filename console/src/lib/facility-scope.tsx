import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useFacilities } from './facilities.ts';

/** The facility every staff list and the dashboard are scoped to; null is All Facilities. */
export type SelectedFacility = { id: string; name: string } | null;

type FacilityScope = {
  selectedFacility: SelectedFacility;
  selectFacility: (facility: SelectedFacility) => void;
};

/** The URL parameter that holds the facility in scope, on every staff screen. */
export const FACILITY_PARAM = 'facility';

const FacilityScopeContext = createContext<FacilityScope | null>(null);

function withFacility(facilityId: string | null): string {
  const params = new URLSearchParams(window.location.search);
  if (facilityId) params.set(FACILITY_PARAM, facilityId);
  else params.delete(FACILITY_PARAM);
  const query = params.toString();
  return `${window.location.pathname}${query ? `?${query}` : ''}`;
}

/**
 * The facility in scope lives in the URL (`?facility=<id>`), so it survives a reload and a shared
 * link opens the same view. A link inside the console that does not carry it (the sidebar, a
 * search result) keeps the facility in scope, which is then written back into the URL; choosing
 * All Facilities removes it. An id that names no facility falls back to All Facilities.
 */
export function FacilityScopeProvider({ children }: { children: ReactNode }) {
  const search = useSearch();
  const [, navigate] = useLocation();
  const { data: facilities } = useFacilities();
  const inUrl = new URLSearchParams(search).get(FACILITY_PARAM);
  const [kept, setKept] = useState<string | null>(inUrl);
  if (inUrl && inUrl !== kept) setKept(inUrl);
  const unknown = kept !== null && facilities !== undefined && !facilities.some((facility) => facility.id === kept);
  const facilityId = unknown ? null : kept;

  useEffect(() => {
    if (unknown) setKept(null);
    const wanted = unknown ? null : kept;
    if ((inUrl ?? null) !== wanted) navigate(withFacility(wanted), { replace: true });
  }, [inUrl, kept, unknown, navigate]);

  const selectFacility = useCallback(
    (facility: SelectedFacility) => {
      setKept(facility?.id ?? null);
      navigate(withFacility(facility?.id ?? null));
    },
    [navigate],
  );

  const name = facilities?.find((facility) => facility.id === facilityId)?.name ?? '';
  const scope = useMemo(() => ({ selectedFacility: facilityId ? { id: facilityId, name } : null, selectFacility }), [facilityId, name, selectFacility]);
  return <FacilityScopeContext value={scope}>{children}</FacilityScopeContext>;
}

export function useFacilityScope(): FacilityScope {
  const scope = useContext(FacilityScopeContext);
  if (!scope) throw new Error('useFacilityScope must be used inside FacilityScopeProvider');
  return scope;
}
