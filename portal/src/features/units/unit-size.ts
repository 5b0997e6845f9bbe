import type { UnitSize } from '@storage/contracts/enums';

/** "10x15" is width by length in feet. */
export function squareFeet(size: UnitSize): number {
  const [width, length] = size.split('x').map(Number);
  return (width ?? 0) * (length ?? 0);
}

// Sizes without a text of their own (null) get a generic one. Typed by the contract's sizes, so
// a new size must be listed here, which also gives the waiting-list form its choices.
const defaultDescriptions: Record<UnitSize, string | null> = {
  '5x5': 'About the size of a small closet. Ideal for boxes, seasonal decorations, small furniture and files.',
  '5x10': 'About the size of a walk-in closet. Fits a mattress set, a dresser and boxes, or the contents of a studio apartment.',
  '5x15': null,
  '10x10': 'About half a one-car garage. Holds the furniture of a one-bedroom apartment, including appliances.',
  '10x15': 'About the size of a large bedroom. Fits the contents of a two-bedroom apartment or a small house.',
  '10x20': 'About the size of a one-car garage. Holds the contents of a three-bedroom house, or a car.',
  '10x25': null,
  '15x20': 'About the size of a large garage. Fits the contents of a four-bedroom house with appliances.',
  '20x20': 'About the size of a two-car garage. Room for a large home, business inventory or vehicles.',
  '20x30': null,
};

export const unitSizeChoices = Object.keys(defaultDescriptions) as UnitSize[];

/** The unit's own description, else a default text for its size. */
export function unitDescription(unit: { size: UnitSize; description: string | null }): string {
  return unit.description || defaultDescriptions[unit.size] || `A ${unit.size} storage unit with ${squareFeet(unit.size)} square feet of space.`;
}

export function formatRate(monthlyRate: string): string {
  return `$${monthlyRate}`;
}
