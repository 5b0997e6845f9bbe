import type { BuildingOccupancy } from '@storage/contracts/dashboard';

/** Spec §9: 90 % or more green, 70 to under 90 yellow, below 70 orange. */
export function occupancyColor(percent: number): string {
  if (percent >= 90) return '#16a34a';
  if (percent >= 70) return '#eab308';
  return '#f97316';
}

export function occupancyPercent(building: Pick<BuildingOccupancy, 'occupied' | 'total'>): number {
  return building.total === 0 ? 0 : Math.round((building.occupied / building.total) * 1000) / 10;
}

/**
 * 'Facility Occupancy' when the buildings are one facility's, else 'All Facilities Occupancy'.
 * (The spec counts buildings; a facility here has several, so its buildings count as one.)
 */
export function occupancyTitle(buildings: readonly BuildingOccupancy[]): string {
  const facilities = new Set(buildings.map((building) => building.facilityId));
  return facilities.size === 1 ? 'Facility Occupancy' : 'All Facilities Occupancy';
}

/** The buildings under their facility, in the order given. */
export function byFacility(
  buildings: readonly BuildingOccupancy[],
): Array<{ facilityId: string | null; facilityName: string; buildings: BuildingOccupancy[] }> {
  const groups = new Map<string | null, { facilityId: string | null; facilityName: string; buildings: BuildingOccupancy[] }>();
  for (const building of buildings) {
    const group = groups.get(building.facilityId) ?? { facilityId: building.facilityId, facilityName: building.facilityName ?? 'Unassigned', buildings: [] };
    group.buildings.push(building);
    groups.set(building.facilityId, group);
  }
  return [...groups.values()];
}
