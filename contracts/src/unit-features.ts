import { z } from 'zod';

// What a unit offers a renter, set by staff: the public unit list shows these, and only these, as
// the unit's badges (never a feature the unit was not given).

export const UnitLockType = z.enum(['disc', 'cylinder', 'smart']);
export type UnitLockType = z.infer<typeof UnitLockType>;

export const unitLockTypeLabels: Record<UnitLockType, string> = { disc: 'Disc Lock', cylinder: 'Cylinder Lock', smart: 'Smart Lock' };

export const UnitFeatures = z.strictObject({
  climateControlled: z.boolean(),
  /** A door a renter can drive up to. */
  driveUp: z.boolean(),
  /** The floor it is on, 1 being the ground floor; null: not said. */
  floor: z
    .number('must be a whole number')
    .int('must be a whole number')
    .min(1, 'must be 1 (the ground floor) or higher')
    .max(99, 'must be at most 99')
    .nullable(),
  /** The lock the unit takes; null: not said. */
  lockType: UnitLockType.nullable(),
});
export type UnitFeatures = z.infer<typeof UnitFeatures>;

/** A unit nobody has described: no badge at all. */
export const NO_UNIT_FEATURES: UnitFeatures = { climateControlled: false, driveUp: false, floor: null, lockType: null };

export type UnitFeatureBadge = { kind: 'climate' | 'drive-up' | 'floor' | 'lock'; text: string };

/** The badges a unit's features earn, in the order the cards show them (the console's and the public list's). */
export function unitFeatureBadges(features: UnitFeatures): UnitFeatureBadge[] {
  const badges: UnitFeatureBadge[] = [];
  if (features.climateControlled) badges.push({ kind: 'climate', text: 'Climate Controlled' });
  if (features.driveUp) badges.push({ kind: 'drive-up', text: 'Drive-Up Access' });
  if (features.floor !== null) badges.push({ kind: 'floor', text: features.floor === 1 ? 'Ground Floor' : `Floor ${features.floor}` });
  if (features.lockType !== null) badges.push({ kind: 'lock', text: unitLockTypeLabels[features.lockType] });
  return badges;
}
